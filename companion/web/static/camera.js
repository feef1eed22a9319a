// The camera's view on the table's controls page (/t/TOKEN): the latest settled picture of
// the play area with every reading drawn on it (its outline, its name, how it stands: sure,
// asked, left out), sent each time the table settles (never a video). A tap on a reading
// asks what it is: the recognizer's nearest faces first, then the whole deck (searchable),
// or "not a card"; the daemon stores the correction before the page hears it went through.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const cameraBase = window.location.pathname.replace(/\/$/, "") + "/";

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// One reading: its outline, its name centred above it and how it stands below it.
function drawReading(reading) {
  const points = reading.outline.map(([x, y]) => `${x},${y}`).join(" ");
  const xs = reading.outline.map((p) => p[0]), ys = reading.outline.map((p) => p[1]);
  const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
  const group = svgNode("g", {class: "reading " + reading.state.replace(/ /g, "-"),
                              "data-n": reading.n, "data-id": reading.id || "",
                              "data-state": reading.state, tabindex: 0, role: "button"});
  group.append(svgNode("title", {}, `${reading.name}: ${reading.said}`));
  group.append(svgNode("polygon", {points}));
  for (const [text, y] of [[reading.name, Math.max(12, Math.min(...ys) - 4)],
                           [reading.said, Math.max(...ys) + 13]]) {
    group.append(svgNode("text", {x: middle, y, class: "halo"}, text));
    group.append(svgNode("text", {x: middle, y}, text));
  }
  return group;
}

// The readings as a list too: each a button, easier to hit than a small card.
function listReading(reading) {
  return el("button", {type: "button", class: "reading-item " + reading.state.replace(/ /g, "-"),
                       "data-n": reading.n}, `${reading.name}: ${reading.said}`);
}

let cameraView = null;  // the view shown
let chosen = null;  // the reading being corrected (its number), while the question is open

function choiceButton(card) {
  return el("button", {type: "button", class: "choice", "data-id": card.id,
                       onclick: () => correctReading(card.id)}, card.name);
}

function showDeck() {
  const reading = cameraView.readings.find((r) => r.n === chosen);
  const near = new Set(reading.nearest.map((c) => c.id));
  const wanted = document.getElementById("camera-search").value.trim().toLowerCase();
  replace("camera-deck", ...cameraView.deck
    .filter((c) => !near.has(c.id) && c.id !== reading.id)
    .filter((c) => !wanted || c.name.toLowerCase().includes(wanted) || c.id.includes(wanted))
    .map(choiceButton));
}

function openChooser(n) {
  const reading = cameraView.readings.find((r) => r.n === n);
  if (!reading) return;
  chosen = n;
  for (const node of document.querySelectorAll(".reading")) {
    node.classList.toggle("chosen", Number(node.dataset.n) === n);
  }
  replace("camera-question", reading.id
    ? t("What is it? The camera read {name}.", {name: reading.name})
    : t("What is this card?"));
  replace("camera-nearest", ...reading.nearest.filter((c) => c.id !== reading.id)
    .map(choiceButton));
  document.getElementById("camera-search").value = "";
  showDeck();
  const box = document.getElementById("camera-choose");
  box.hidden = false;
  document.body.dataset.choosing = n;
}

function closeChooser() {
  chosen = null;
  document.getElementById("camera-choose").hidden = true;
  delete document.body.dataset.choosing;
  for (const node of document.querySelectorAll(".reading.chosen")) node.classList.remove("chosen");
}

async function sendCorrection(body) {
  const status = document.getElementById("camera-status");
  status.textContent = t("correcting...");
  try {
    await post(cameraBase + "camera/correct", body);
    status.textContent = t("corrected");
    closeChooser();
  } catch (error) {
    status.textContent = t("not corrected: {why}", {why: error.message});
  }
}

function correctReading(id) {
  if (chosen === null) return;
  sendCorrection({look: cameraView.look, reading: chosen, id});
}

document.getElementById("camera-readings").addEventListener("click", (e) => {
  const group = e.target.closest(".reading");
  if (group) openChooser(Number(group.dataset.n));
});
document.getElementById("camera-readings").addEventListener("keydown", (e) => {
  const group = e.target.closest(".reading");
  if (group && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); openChooser(Number(group.dataset.n)); }
});
document.getElementById("camera-list").addEventListener("click", (e) => {
  const button = e.target.closest(".reading-item");
  if (button) openChooser(Number(button.dataset.n));
});
document.getElementById("camera-search").addEventListener("input", showDeck);
document.getElementById("camera-not-a-card").addEventListener("click", () => correctReading(null));
document.getElementById("camera-cancel").addEventListener("click", closeChooser);
document.getElementById("camera-undo").addEventListener("click",
  () => sendCorrection({look: cameraView.look, undo: true}));

function showCamera(view) {
  if (!cameraView || view.look !== cameraView.look) closeChooser();  // a new picture
  cameraView = view;
  // A table with no camera shows no camera's view (nor an empty one).
  document.getElementById("camera").hidden = !view.watching && view.look === null;
  document.getElementById("camera-undo").hidden = !view.can_undo;
  showAsked(view.asked, cameraBase + "camera/answer");  // the camera's question, if any
  document.body.dataset.look = view.look ?? "";
  document.getElementById("camera-none").hidden = view.look !== null;
  const frame = document.getElementById("camera-frame");
  frame.hidden = view.look === null;
  if (view.look === null) return;
  const picture = document.getElementById("camera-picture");
  const url = new URL(cameraBase + view.picture, window.location.href).href;
  if (picture.src !== url) picture.src = url;
  const svg = document.getElementById("camera-readings");
  svg.setAttribute("viewBox", `0 0 ${view.width} ${view.height}`);
  svg.replaceChildren(...view.readings.map(drawReading));
  replace("camera-list", ...view.readings.map(listReading));
  if (chosen !== null) openChooser(chosen);  // still open: drawn again over the new readings
  document.body.dataset.readings = view.readings.map((r) => `${r.id || "?"}:${r.state}`).join(" ");
}
