// A seat's own page: its private view (behind hold-to-peek), its actions.
"use strict";

const base = window.location.pathname.replace(/\/$/, "") + "/";
const peek = document.getElementById("peek");
const secret = document.getElementById("secret");
let actions = [];
let latest = null;

// The seat's screen as its OLED shows it while peeking: drawn by the daemon when asked.
function drawScreen() {
  if (!latest) return;
  document.getElementById("screen").src = latest.screen || `${base}screen.png?n=${latest.events}`;
}
let shownActions = "";

function show(seat) {
  document.body.dataset.events = seat.events;
  document.body.dataset.seat = seat.seat;
  document.title = seat.name + " - " + seat.title;
  replace("title", seat.name);
  // An unnamed seat ("Seat 4", said in the page's language): the field waits for a name.
  const name = document.getElementById("name");
  name.placeholder = seat.name;
  if (document.activeElement !== name) name.value = seat.unnamed ? "" : seat.name;
  replace("total", `${seat.title}: ${seat.api.totals[seat.seat]}`);
  const language = document.getElementById("language");
  if (language.options.length !== seat.languages.length) {
    language.replaceChildren(...seat.languages.map(([code, name]) =>
      el("option", {value: code}, name)));
  }
  language.value = seat.lang;
  replace("error", seat.error || "");
  showAsked(seat.asked, base + "answer");  // the camera's question, if it is this seat's
  latest = seat;
  if (!secret.hidden) drawScreen();
  // Each of the seat's own facts as a sentence, in the page's language (``peek_lines``).
  replace("private", ...seat.peek.map((line) => el("li", {}, line)));
  replace("words", ...seat.words.map((line) => el("li", {}, line)));
  replace("scores", scoreTable(seat.api, seat.names));
  const tapbox = document.getElementById("tapbox");
  tapbox.hidden = !seat.tap;
  replace("tap", seat.tap || "");
  const signature = JSON.stringify([seat.actions, seat.order]);
  if (signature !== shownActions) {
    shownActions = signature;
    // The actions come in the game's own order; ``order`` ranks them (the likeliest first).
    showActions(seat.order.map((type) => seat.actions.find((a) => a.type === type)));
  }
}

// The events the rules take from this seat now, the likeliest first (the server's order);
// any other is sent as a table-log line, under "Advanced".
function showActions(all) {
  actions = all.filter((a) => a.now);
  const select = document.getElementById("type");
  const chosen = select.value;
  select.replaceChildren(...actions.map((a) => el("option", {value: a.type},
    a.own ? a.label : t("{event} (for the table)", {event: a.label}))));
  select.value = actions.some((a) => a.type === chosen) ? chosen
    : (actions.length ? actions[0].type : "");
  document.getElementById("send").hidden = actions.length === 0;
  document.getElementById("nothing").hidden = actions.length > 0;
  drawFields();
}

function drawFields() {
  const action = actions.find((a) => a.type === document.getElementById("type").value);
  if (!action) return replace("fields");
  replace("fields", ...action.fields.map((field) => {
    let input;
    if (field.choices) {
      input = el("select", {name: field.name},
        ...(field.required ? [] : [el("option", {value: ""}, "-")]),
        ...field.choices.map((choice, i) =>
          el("option", {value: JSON.stringify(choice)}, field.labels ? field.labels[i] : choice)));
    } else if (field.kind === "bool") {
      input = el("input", {name: field.name, type: "checkbox"});
    } else if (field.kind === "int") {
      input = el("input", {name: field.name, type: "number", inputmode: "numeric",
                           min: field.min ?? "", max: field.max ?? ""});
    } else {
      input = el("input", {name: field.name, type: "text",
                           placeholder: field.kind === "list" ? t("a, b, ...") : ""});
    }
    return el("label", {}, field.required ? field.label : t("{field} (optional)", {field: field.label}), input);
  }));
}

function readForm() {
  const type = document.getElementById("type").value;
  const action = actions.find((a) => a.type === type);
  const event = {type};
  for (const field of action.fields) {
    const input = document.querySelector(`#fields [name="${field.name}"]`);
    if (field.kind === "bool") { if (input.checked) event[field.name] = true; continue; }
    const text = input.value.trim();
    if (text === "") continue;
    if (field.choices) event[field.name] = JSON.parse(text);
    else if (field.kind === "int") event[field.name] = Number(text);
    else if (field.kind === "list") {
      event[field.name] = text.split(",").map((s) => s.trim()).filter((s) => s)
        .map((s) => field.items === "int" ? Number(s) : s);
    } else event[field.name] = text;
  }
  return event;
}

async function send(body) {
  const status = document.getElementById("sent");
  status.textContent = t("sending...");
  try {
    const answer = await post(base + "act", body);
    status.textContent = t("sent: {what}", {what: answer.sent});
  } catch (error) {
    status.textContent = t("not sent: {why}", {why: error.message});
  }
}

document.getElementById("type").addEventListener("change", drawFields);
document.getElementById("send").addEventListener("submit", (e) => {
  e.preventDefault();
  send({kind: "event", event: readForm()});
});
document.getElementById("send-json").addEventListener("submit", (e) => {
  e.preventDefault();
  let event;
  try { event = JSON.parse(document.getElementById("json").value); }
  catch (error) {
    document.getElementById("sent").textContent = t("not JSON: {why}", {why: error.message});
    return;
  }
  send({kind: "event", event});
});
document.getElementById("naming").addEventListener("submit", async (e) => {
  e.preventDefault();
  const status = document.getElementById("named");
  status.textContent = t("saving...");
  try {
    const answer = await post(base + "name", {name: document.getElementById("name").value});
    status.textContent = t("saved: {name}", {name: answer.name});
  } catch (error) {
    status.textContent = t("not saved: {why}", {why: error.message});
  }
});
document.getElementById("language").addEventListener("change", async (e) => {
  try { await post(base + "language", {lang: e.target.value}); }
  catch (error) { replace("named", t("not saved: {why}", {why: error.message})); }
});
document.getElementById("tap").addEventListener("click", () => send({kind: "tap"}));

// Hold to peek: the secrets show only while the button is held down.
const hide = () => { secret.hidden = true; };
peek.addEventListener("pointerdown", (e) => { e.preventDefault(); drawScreen(); secret.hidden = false; });
for (const kind of ["pointerup", "pointerleave", "pointercancel", "blur"]) peek.addEventListener(kind, hide);
document.addEventListener("visibilitychange", hide);
peek.addEventListener("contextmenu", (e) => e.preventDefault());

live(base + "ws", show, () => {
  replace("gone", t("This link no longer works (a new game, or a new code for this seat): scan your seat's new code."));
});
