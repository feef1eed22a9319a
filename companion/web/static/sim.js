// The simulator in a browser: every screen at a readable scale; the dial, its switch, the
// menu button and each seat's button as controls (press, hold past a second, release).
"use strict";

const HOLD_MS = 1000;
// One after another, in the order they happened (a tap is a press, then a release).
let chain = Promise.resolve();
const input = (kind, control, value = 0) => {
  chain = chain.then(() => post("/sim/input", {kind, control, value})).catch(() => {});
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
      const label = name === "table" ? "Table" : "Seat " + (Number(name.split(":")[1]) + 1);
      box = el("section", {id: "screen-" + name}, el("h2", {}, label),
               el("img", {class: "screen", alt: name + " screen"}));
      if (name.startsWith("seat:") && !seatButtons.has(name)) {
        const button = el("button", {type: "button", class: "big"}, label + " button");
        holdable(button, name);
        seatButtons.add(name);
        box.append(button);
      }
      main.append(box);
    }
    box.querySelector("img").src = url;
  }
  document.body.dataset.screens = Object.keys(sim.screens).length;
}

function showLinks(message) {
  replace("links", ...message.links.map((link) => {
    const box = el("div", {class: "link"}, el("div", {}, link.name));
    box.insertAdjacentHTML("beforeend", link.qr);
    box.append(el("div", {}, el("a", {href: link.url, target: "_blank"}, "seat " + (link.seat + 1))));
    return box;
  }));
}

live("/sim/ws", (message) => (message.kind === "links" ? showLinks(message) : show(message)));
