// The camera's question (an unsure reading): its crop and the choices, on the acting seat's
// page and on the controls page. The first answer wins, at the table or on any page: the
// question then leaves every page (the server sends it no more).
"use strict";

let askedNow = null;  // the question shown (its number), and where answers go

function showAsked(asked, answerUrl) {
  const box = document.getElementById("asked");
  if (!box) return;
  if (!asked) {
    if (askedNow !== null) replace("asked-status", "");
    askedNow = null;
    box.hidden = true;
    delete document.body.dataset.asked;
    return;
  }
  const fresh = askedNow === null || askedNow.question !== asked.question;
  askedNow = {question: asked.question, url: answerUrl};
  box.hidden = false;
  document.body.dataset.asked = asked.question;
  replace("asked-title", asked.title);
  const crop = document.getElementById("asked-crop");
  crop.hidden = !asked.crop;
  if (asked.crop) crop.src = asked.crop;
  replace("asked-choices", ...asked.choices.map((choice) => el("button", {
    type: "button", class: choice.value === "yes" ? "choice yes" : "choice",
    "data-choice": choice.value, onclick: () => answerAsked(choice.value)}, choice.label)));
  if (fresh) replace("asked-status", "");
}

async function answerAsked(choice) {
  if (!askedNow) return;
  const status = document.getElementById("asked-status");
  status.textContent = t("sending...");
  try {
    await post(askedNow.url, {question: askedNow.question, choice});
    status.textContent = t("answered");
  } catch (error) {
    status.textContent = t("not answered: {why}", {why: error.message});
  }
}
