// Enrolling the cards of the game on the table with the camera, on the controls page
// (/t/TOKEN): the camera takes each card laid as the table settles, the page shows its crop
// and what to lay next ("Lay the next card: Rat Man (3 of 17)"); cards laid several at once
// are named by a tap, from the game's own list. The deck is ready once every card has its
// face: the daemon writes the library before the page hears it.
"use strict";

const enrolBase = window.location.pathname.replace(/\/$/, "") + "/camera/enrol";
let enrolView = null;  // the enrolment shown
let naming = null;  // the crop being named (its number), while the list is open

async function sendEnrol(body) {
  const status = document.getElementById("enrol-status");
  status.textContent = t("sending...");
  try {
    await post(enrolBase, body);
    status.textContent = "";
    return true;
  } catch (error) {
    status.textContent = t("not done: {why}", {why: error.message});
    return false;
  }
}

function cropButton(taken) {
  return el("button", {type: "button", class: "enrol-crop" + (taken.card ? "" : " unnamed"),
                       "data-n": taken.n, "data-card": taken.card || "",
                       onclick: () => openNaming(taken.n)},
            el("img", {src: taken.crop, alt: taken.name}), el("span", {}, taken.name));
}

// The game's cards, those without a face first: a tap names the crop (a name given to
// another crop before moves to this one).
function openNaming(n) {
  const taken = enrolView && enrolView.taken.find((c) => c.n === n);
  if (!taken) return;
  naming = n;
  const named = new Set(enrolView.taken.filter((c) => c.card).map((c) => c.card));
  const cards = [...enrolView.cards.filter((c) => !named.has(c.id)),
                 ...enrolView.cards.filter((c) => named.has(c.id))];
  replace("enrol-question", taken.card
    ? t("Which card is it? Named {name}.", {name: taken.name})
    : t("Which card is it?"));
  replace("enrol-cards", ...cards.map((card) => el("button", {
    type: "button", class: "choice" + (named.has(card.id) ? " in" : ""), "data-id": card.id,
    onclick: () => nameCrop(card.id)}, card.name)));
  for (const node of document.querySelectorAll(".enrol-crop")) {
    node.classList.toggle("chosen", Number(node.dataset.n) === n);
  }
  document.getElementById("enrol-choose").hidden = false;
  document.body.dataset.enrolNaming = n;
}

function closeNaming() {
  naming = null;
  document.getElementById("enrol-choose").hidden = true;
  delete document.body.dataset.enrolNaming;
  for (const node of document.querySelectorAll(".enrol-crop.chosen")) node.classList.remove("chosen");
}

async function nameCrop(card) {
  if (naming === null) return;
  if (await sendEnrol({action: "name", crop: naming, card})) closeNaming();
}

document.getElementById("enrol-start").addEventListener("click", () => sendEnrol({action: "start"}));
document.getElementById("enrol-stop").addEventListener("click", () => sendEnrol({action: "stop"}));
document.getElementById("enrol-cancel").addEventListener("click", closeNaming);
document.getElementById("enrol-drop").addEventListener("click", async () => {
  if (naming !== null && await sendEnrol({action: "drop", crop: naming})) closeNaming();
});

function showEnrolment(view) {
  enrolView = view;
  const box = document.getElementById("enrol");
  box.hidden = !view;
  if (!view) {
    delete document.body.dataset.enrol;
    return;
  }
  const start = document.getElementById("enrol-start");
  start.hidden = view.active;
  start.textContent = t("Enrol the cards of {game}", {game: view.game});
  document.getElementById("enrol-stop").hidden = !view.active;
  replace("enrol-prompt", view.active ? view.prompt : (view.ready || ""));
  replace("enrol-problem", view.problem || "");
  replace("enrol-taken", ...view.taken.map(cropButton));
  document.getElementById("enrol-count").textContent = view.active
    ? t("{named} of {total} cards in", {named: view.named, total: view.total}) : "";
  if (naming !== null && !view.taken.some((c) => c.n === naming)) closeNaming();
  else if (naming !== null) openNaming(naming);  // drawn again over the new crops
  document.body.dataset.enrol = view.active ? "active" : (view.ready ? "ready" : "idle");
  document.body.dataset.enrolNamed = view.active ? view.named : "";
  document.body.dataset.enrolNext = view.active ? (view.next || "") : "";
  document.body.dataset.enrolTaken = view.taken.length;
}
