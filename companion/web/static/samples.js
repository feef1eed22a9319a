// What the camera learnt, on the table's controls page (/t/TOKEN): each reading put right
// keeps its crop as a sample of the card named (or of "not a card"), used from the next
// picture on. The samples are listed newest first, each with its crop and name; a tap on
// "Forget" drops a bad one: gone from the list once the daemon has it, no longer used from
// the camera's next frame on, and gone from the samples file.
"use strict";
// cameraBase: the controls page's own address (camera.js).

async function dropSample(sample) {
  const status = document.getElementById("samples-status");
  status.textContent = t("forgetting...");
  try {
    await post(cameraBase + "camera/samples", {drop: sample.n});
    status.textContent = t("forgotten: {name}", {name: sample.name});
  } catch (error) {
    status.textContent = t("not forgotten: {why}", {why: error.message});
  }
}

function sampleItem(sample) {
  return el("figure", {class: "sample", "data-n": sample.n, "data-card": sample.id},
            el("img", {src: cameraBase + sample.picture, alt: sample.name}),
            el("figcaption", {}, sample.name),
            el("button", {type: "button", class: "sample-drop",
                          title: t("The camera no longer uses this sample"),
                          onclick: () => dropSample(sample)}, t("Forget")));
}

function showSamples(view) {
  const box = document.getElementById("samples");
  box.hidden = !view;  // a table with no camera library keeps no samples
  if (!view) {
    delete document.body.dataset.samples;
    return;
  }
  document.getElementById("samples-none").hidden = view.listed.length > 0;
  // Drawn again only when the list changed (its version), so a picture is never fetched twice.
  if (document.body.dataset.samples !== String(view.version)) {
    replace("samples-list", ...view.listed.map(sampleItem));
  }
  document.body.dataset.samples = view.version;
  document.body.dataset.samplesListed = view.listed.map((s) => s.id).join(" ");
}
