// The simulator in a browser: every screen at a readable scale; the dial, its switch, the
// menu button and each seat's button as controls (press, hold past a second, release).
"use strict";

const HOLD_MS = 1000;
// The simulator (/sim: every screen, every button) or the table's controls (/t/TOKEN: the
// table screen, the dial, its switch and the menu button of a table with no OLED or dial).
const mode = document.body.dataset.mode || "sim";
if (mode === "control") {
  say(document.querySelector("title"), mark("Dungeon Table controls"));
  say(document.getElementById("heading"), mark("Table controls"));
  say(document.getElementById("links-heading"), mark("Seats: scan your code to join"));
}
const base = mode === "control" ? window.location.pathname.replace(/\/$/, "") + "/" : "/sim/";
// One after another, in the order they happened (a tap is a press, then a release).
let chain = Promise.resolve();
const input = (kind, control, value = 0) => {
  chain = chain.then(() => post(base + "input", {kind, control, value})).catch(() => {});
  return chain;
};

function holdable(button, control) {
  let timer = null, down = false;
  button.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    down = true;
    input("press", control);
    timer = setTimeout(() => input("hold", control, 1), HOLD_MS);
  });
  const up = () => {
    if (!down) return;
    down = false;
    clearTimeout(timer);
    input("release", control);
  };
  for (const kind of ["pointerup", "pointerleave", "pointercancel"]) button.addEventListener(kind, up);
}

document.getElementById("dial-left").addEventListener("click", () => input("dial", "encoder:0", -1));
document.getElementById("dial-right").addEventListener("click", () => input("dial", "encoder:0", 1));
for (const button of document.querySelectorAll("[data-control]")) holdable(button, button.dataset.control);
document.addEventListener("keydown", (e) => {
  if (e.key === "," ) input("dial", "encoder:0", -1);
  if (e.key === ".") input("dial", "encoder:0", 1);
});

const seatButtons = new Set();
function show(sim) {
  replace("status", sim.status);
  const main = document.getElementById("screens");
  for (const [name, url] of Object.entries(sim.screens)) {
    let box = document.getElementById("screen-" + name);
    if (!box) {
      box = el("section", {id: "screen-" + name}, el("h2"), el("img", {class: "screen"}));
      if (name.startsWith("seat:") && !seatButtons.has(name)) {
        const button = el("button", {type: "button", class: "big"});
        holdable(button, name);
        seatButtons.add(name);
        box.append(button);
      }
      main.append(box);
    }
    // The seat's one name (the game's, as the screens say it), anew at every message: a new
    // game or a seat's new name changes it.
    const label = sim.labels[name];
    box.querySelector("h2").textContent = label;
    box.querySelector("img").alt = t("{name}: its screen", {name: label});
    const button = box.querySelector("button");
    if (button) button.textContent = t("{name}: its button", {name: label});
    box.querySelector("img").src = url;
  }
  document.body.dataset.screens = Object.keys(sim.screens).length;
}

function showLinks(message) {
  replace("links", ...message.links.map((link) => {
    // The code, captioned with the seat's one name (a link to its page).
    const box = el("div", {class: "link"});
    box.insertAdjacentHTML("beforeend", link.qr);
    box.append(el("div", {}, el("a", {href: link.url, target: "_blank"}, link.name)));
    return box;
  }));
}

// The controls page also gets the camera's view (camera.js); the simulator does not.
live(base + (mode === "control" ? "ws?camera=1" : "ws"), (message) => {
  if (message.kind === "links") showLinks(message);
  else if (message.kind === "camera") showCamera(message);
  else if (message.kind === "table") {
    show({status: message.status, screens: {table: message.screen}, labels: {table: t("Table")}});
  }
  else show(message);
}, () => replace("status", t("This table link no longer works: companion seats prints the new one.")));
