// A seat's own page: its private view (behind hold-to-peek), its actions.
"use strict";

const base = window.location.pathname.replace(/\/$/, "") + "/";
const peek = document.getElementById("peek");
const secret = document.getElementById("secret");
let actions = [];
let latest = null;
// An event sent and not yet seen taken or refused: its words, and the table as it was sent.
let pending = null;

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
  settle(seat);
  showAsked(seat.asked, base + "answer");  // the camera's question, if it is this seat's
  latest = seat;
  if (!secret.hidden) drawScreen();
  document.getElementById("peekbox").hidden = !seat.secret;  // nothing private: no peek
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
    } else if (field.suggestions) {
      // The game's words (cards, characters...) by their names, suggested as they are typed.
      const list = `words-${field.name}`;
      input = el("input", {name: field.name, type: "text", list, autocomplete: "off",
                           placeholder: field.suggested.slice(0, 2).join(", ") + ", ..."});
      const datalist = el("datalist", {id: list},
        ...field.suggested.map((name) => el("option", {value: name})));
      return el("label", {}, field.required ? field.label
        : t("{field} (optional)", {field: field.label}), input, datalist);
    } else {
      input = el("input", {name: field.name, type: "text",
                           placeholder: field.kind === "list" ? t("a, b, ...") : ""});
    }
    return el("label", {}, field.required ? field.label : t("{field} (optional)", {field: field.label}), input);
  }));
}

// A word typed for a field with the game's words: the one it names, whatever its case, by
// its id or its name ("twin thief", "Twin Thief" and "twin-thief" are one character); else
// as typed (the rules then say what is wrong with it).
function wordOf(field, typed) {
  if (!field.suggestions) return typed;
  const folded = typed.toLocaleLowerCase();
  const index = field.suggestions.findIndex((id, i) => id.toLocaleLowerCase() === folded
    || field.suggested[i].toLocaleLowerCase() === folded);
  return index < 0 ? typed : field.suggestions[index];
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
        .map((s) => field.items === "int" ? Number(s) : wordOf(field, s));
    } else event[field.name] = text;
  }
  return event;
}

// ``what``: the event in the page's words (the form's label), for the line under the form.
async function send(body, what) {
  const status = document.getElementById("sent");
  status.textContent = t("sending...");
  const before = latest ? {events: latest.events, error: latest.error || ""} : null;
  try {
    const answer = await post(base + "act", body);
    status.textContent = t("sent: {what}", {what: what || answer.sent});
    pending = before && {...before, what: what || answer.sent};
    if (latest) settle(latest);
  } catch (error) {
    pending = null;
    status.textContent = t("not sent: {why}", {why: error.message});
  }
}

// What became of the event sent, once the table answers: refused (its reason is the notice at
// the top) or taken. The line never says "sent" once the table has said otherwise.
function settle(seat) {
  if (!pending) return;
  const status = document.getElementById("sent");
  if (seat.error && seat.error !== pending.error) {
    status.textContent = t("not taken: {what} (the reason is above)", {what: pending.what});
  } else if (seat.events !== pending.events) {
    status.textContent = t("taken: {what}", {what: pending.what});
  } else {
    return;
  }
  pending = null;
}

document.getElementById("type").addEventListener("change", drawFields);
document.getElementById("send").addEventListener("submit", (e) => {
  e.preventDefault();
  const action = actions.find((a) => a.type === document.getElementById("type").value);
  send({kind: "event", event: readForm()}, action && action.label);
});
document.getElementById("send-json").addEventListener("submit", (e) => {
  e.preventDefault();
  let event;
  try { event = JSON.parse(document.getElementById("json").value); }
  catch (error) {
    document.getElementById("sent").textContent = t("not JSON: {why}", {why: error.message});
    return;
  }
  send({kind: "event", event}, event && event.type);
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
document.getElementById("tap").addEventListener("click",
  () => send({kind: "tap"}, latest && latest.tap));

// Hold to peek: the secrets show only while the button is held down.
const hide = () => { secret.hidden = true; };
peek.addEventListener("pointerdown", (e) => { e.preventDefault(); drawScreen(); secret.hidden = false; });
for (const kind of ["pointerup", "pointerleave", "pointercancel", "blur"]) peek.addEventListener(kind, hide);
document.addEventListener("visibilitychange", hide);
peek.addEventListener("contextmenu", (e) => e.preventDefault());

live(base + "ws", show, () => {
  replace("gone", t("This link no longer works (a new game, or a new code for this seat): scan your seat's new code."));
});
