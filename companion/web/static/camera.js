// The camera's view on the table's controls page (/t/TOKEN): the latest settled picture of
// the play area with every reading drawn on it (its outline, its name, how it stands: sure,
// asked, left out), sent each time the table settles (never a video). A tap on a reading
// asks what it is: of the game's own cards that its rules allow there now, the recognizer's
// nearest faces first, then the others (searchable), or "not a card"; the daemon stores the
// correction before the page hears it went through.
"use strict";

const cameraBase = window.location.pathname.replace(/\/$/, "") + "/";

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

// The other cards the rules allow there now (the server's ``allowed``, the likeliest
// first), never one of another game or one played already.
function showDeck() {
  const reading = cameraView.readings.find((r) => r.n === chosen);
  const near = new Set(reading.nearest.map((c) => c.id));
  const names = new Map(cameraView.deck.map((c) => [c.id, c.name]));
  const wanted = document.getElementById("camera-search").value.trim().toLowerCase();
  replace("camera-deck", ...reading.allowed
    .filter((id) => !near.has(id) && id !== reading.id)
    .map((id) => ({id, name: names.get(id) || id}))
    .filter((c) => !wanted || c.name.toLowerCase().includes(wanted) || c.id.includes(wanted))
    .map(choiceButton));
}

function openChooser(n) {
  if (viewing !== null) return;  // an earlier picture is read only
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

// A new id for each correction tapped: the daemon stores a correction sent twice once.
function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));  // randomUUID needs HTTPS
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sendCorrection(body) {
  const status = document.getElementById("camera-status");
  status.textContent = t("correcting...");
  try {
    await post(cameraBase + "camera/correct", {...body, request: requestId()});
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

let viewing = null;  // an earlier event whose picture is shown instead of the latest

function drawPicture(url, width, height, readings) {
  const picture = document.getElementById("camera-picture");
  const full = new URL(url, window.location.href).href;
  if (picture.src !== full) picture.src = full;
  const svg = document.getElementById("camera-readings");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.replaceChildren(...readings.map((reading) => drawReading(reading)));
  replace("camera-list", ...readings.map(listReading));
}

// An earlier camera event's picture, as the store keeps it: its readings as they stood when
// the event was stored (read only: only the latest picture is corrected).
async function showEarlier(seq) {
  const answer = await fetch(`${cameraBase}camera/event/${seq}.json`,
                             {cache: "no-store", credentials: "omit"});
  if (!answer.ok) return;
  const about = await answer.json();
  const names = Object.fromEntries(cameraView.deck.map((card) => [card.id, card.name]));
  closeChooser();
  viewing = seq;
  document.body.dataset.viewing = seq;
  document.getElementById("camera-latest").hidden = false;
  document.getElementById("camera-frame").classList.add("earlier");
  drawPicture(`${cameraBase}camera/event/${seq}.jpg`, about.width, about.height,
    storedReadings(about, names, cameraView.states));
}

function showLatest() {
  viewing = null;
  delete document.body.dataset.viewing;
  document.getElementById("camera-latest").hidden = true;
  document.getElementById("camera-frame").classList.remove("earlier");
  if (cameraView) showCamera(cameraView);
}

document.getElementById("camera-latest").addEventListener("click", showLatest);
document.getElementById("camera-earlier").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-seq]");
  if (button) showEarlier(Number(button.dataset.seq));
});

function showCamera(view) {
  if (!cameraView || view.look !== cameraView.look) closeChooser();  // a new picture
  cameraView = view;
  showEnrolment(view.enrolment || null);  // the deck enrolled with the camera (enrol.js)
  showSamples(view.samples || null);  // what corrections taught the camera (samples.js)
  // A table with no camera shows no camera's view (nor an empty one).
  document.getElementById("camera").hidden = !view.watching && view.look === null;
  document.getElementById("camera-undo").hidden = !view.can_undo || viewing !== null;
  // A folder of frames played to its end: said for as long as the page is open.
  const ended = document.getElementById("camera-ended");
  ended.hidden = !view.ended;
  ended.textContent = view.ended || "";
  showAsked(view.asked, cameraBase + "camera/answer");  // the camera's question, if any
  replace("camera-earlier", ...(view.earlier || []).map((event) => el("button", {
    type: "button", "data-seq": event.seq}, `#${event.seq}: ${event.text}`)));
  document.getElementById("camera-earlier-box").hidden = !(view.earlier || []).length;
  document.body.dataset.look = view.look ?? "";
  document.getElementById("camera-none").hidden = view.look !== null || viewing !== null;
  if (viewing !== null) return;  // an earlier picture is shown: the latest waits for "back"
  const frame = document.getElementById("camera-frame");
  frame.hidden = view.look === null;
  if (view.look === null) return;
  drawPicture(cameraBase + view.picture, view.width, view.height, view.readings);
  if (chosen !== null) openChooser(chosen);  // still open: drawn again over the new readings
  document.body.dataset.readings = view.readings.map((r) => `${r.id || "?"}:${r.state}`).join(" ");
}
