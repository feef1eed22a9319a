// The camera's readings drawn over its picture (an SVG laid on the image): the controls page's
// view (camera.js) and a stored event's picture on the table page (table.js).
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// One reading: its outline, its name centred above it and how it stands below it (a button
// to tap unless ``readOnly``: a stored picture is looked at, not corrected).
function drawReading(reading, readOnly = false) {
  const points = reading.outline.map(([x, y]) => `${x},${y}`).join(" ");
  const xs = reading.outline.map((p) => p[0]), ys = reading.outline.map((p) => p[1]);
  const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
  const group = svgNode("g", {class: "reading " + reading.state.replace(/ /g, "-"),
                              "data-n": reading.n, "data-id": reading.id || "",
                              "data-state": reading.state,
                              ...(readOnly ? {} : {tabindex: 0, role: "button"})});
  group.append(svgNode("title", {}, `${reading.name}: ${reading.said}`));
  group.append(svgNode("polygon", {points}));
  for (const [text, y] of [[reading.name, Math.max(12, Math.min(...ys) - 4)],
                           [reading.said, Math.max(...ys) + 13]]) {
    group.append(svgNode("text", {x: middle, y, class: "halo"}, text));
    group.append(svgNode("text", {x: middle, y}, text));
  }
  return group;
}

// A stored event's readings (/t/TOKEN/camera/event/SEQ.json: outlines in millimetres) as
// drawReading takes them: in the picture's pixels, each named (``names``: card id -> name)
// and how it stands said (``states``: state -> words).
function storedReadings(about, names, states) {
  return about.readings.map((r, n) => ({
    n, id: r.id, name: r.id ? (names[r.id] || r.id) : "?", state: r.state,
    said: states[r.state] || r.state,
    outline: r.outline.map(([x, y]) => [x * about.px_per_mm, y * about.px_per_mm])}));
}
