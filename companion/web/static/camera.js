// The camera's view on the table's controls page (/t/TOKEN): the latest settled picture of
// the play area with every reading drawn on it (its outline, its name, how it stands: sure,
// asked, left out), sent each time the table settles (never a video).
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

function showCamera(view) {
  document.getElementById("camera").hidden = false;
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
  document.body.dataset.readings = view.readings.map((r) => `${r.id || "?"}:${r.state}`).join(" ");
}
