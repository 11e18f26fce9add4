"use strict";
/* {{fields}}: the parameter table, written by PlaygroundFields */
const form = document.getElementById("controls");
const preview = document.getElementById("preview");
const status = document.getElementById("status");
const snippets = document.getElementById("snippets");
const invalid = document.getElementById("invalid");
const pngNote = document.getElementById("png-note");
const jsonLink = document.getElementById("json-link");
const controls = {};
const swatches = {};
const outputs = {};
const probe = document.createElement("canvas").getContext("2d");

function element(tag, attributes, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

const fieldsets = {};
for (const group of groups) {
  const set = element("fieldset", {class: "group", id: "g-" + group.name});
  set.append(element("legend", {}, group.title));
  fieldsets[group.name] = set;
  form.append(set);
}

for (const field of fields) {
  const id = "f-" + field.name;
  const box = element("div", {class: "field" + (field.wide ? " wide" : "")});
  box.append(element("label", {for: id}, field.label + " (" + field.name + ")"));
  let input;
  if (field.type === "select") {
    input = element("select", {id: id, name: field.name});
    for (const option of field.options) input.append(element("option", {value: option}, option));
  } else if (field.type === "checkbox") {
    input = element("input", {id: id, name: field.name, type: "checkbox"});
  } else {
    const type = field.type === "color" ? "text" : field.type;
    input = element("input", {id: id, name: field.name, type: type, min: field.min, max: field.max,
      step: field.step, placeholder: field.placeholder, required: field.required, inputmode: field.inputmode,
      autocomplete: "off",
      spellcheck: "false", "aria-describedby": "e-" + field.name + (field.hint ? " h-" + field.name : "")});
  }
  controls[field.name] = input;
  if (field.type === "color") {
    const pair = element("div", {class: "pair"});
    const picker = element("input", {type: "color", "aria-label": "Pick " + field.label.toLowerCase(), tabindex: "0"});
    picker.addEventListener("input", () => { input.value = picker.value.slice(1); update(); });
    swatches[field.name] = picker;
    pair.append(input, picker);
    box.append(pair);
  } else if (field.type === "range") {
    // A slider shows its value beside it.
    const pair = element("div", {class: "pair"});
    outputs[field.name] = element("output", {id: "o-" + field.name, for: id});
    pair.append(input, outputs[field.name]);
    box.append(pair);
  } else {
    box.append(input);
  }
  if (field.hint) box.append(element("span", {class: "hint", id: "h-" + field.name}, field.hint));
  box.append(element("span", {class: "error", id: "e-" + field.name, role: "alert"}));
  input.addEventListener(field.type === "text" || field.type === "number" || field.type === "color" ? "input" : "change", update);
  if (field.type === "range") input.addEventListener("input", update);
  fieldsets[field.group].append(box);
}

const presetRow = document.getElementById("presets");
for (const preset of presets) {
  const button = element("button", {type: "button", "data-query": preset.query}, preset.title);
  button.addEventListener("click", () => { load(preset.query); update(); });
  presetRow.append(button);
}

const snippetFields = [
  ["url", "Image URL"], ["markdown", "Markdown"], ["html", "HTML"], ["picture", "Light and dark (<picture>)"],
];
const snippetAreas = {};
const copyButtons = {};
for (const [key, title] of snippetFields) {
  const box = element("div", {class: "snippet"});
  const id = "s-" + key;
  box.append(element("label", {for: id}, title));
  const pair = element("div", {class: "pair"});
  const area = element("textarea", {id: id, readonly: true, rows: "1"});
  const button = element("button", {type: "button", id: "copy-" + key, "aria-label": "Copy " + title}, "Copy");
  button.addEventListener("click", () => copy(area, button));
  pair.append(area, button);
  box.append(pair);
  snippets.append(box);
  snippetAreas[key] = area;
  copyButtons[key] = button;
}

// A snippet's box grows to its text, so every line shows, down to </picture>.
function fit(area) {
  area.style.height = "auto";
  area.style.height = (area.scrollHeight + area.offsetHeight - area.clientHeight) + "px";
}
addEventListener("resize", () => Object.values(snippetAreas).forEach(fit));

function truthy(value) { return ["", "1", "true", "yes", "on"].includes(String(value).toLowerCase()); }

// SVG or PNG: which route the preview and the snippets use, kept in the page's #fragment
// so the query stays the ring's own.
const formatPNG = document.getElementById("format-png");
for (const radio of document.querySelectorAll("input[name=format]")) radio.addEventListener("change", update);
function format() { return formatPNG.checked ? "png" : "svg"; }

document.getElementById("use-dark").addEventListener("click", () => { controls.theme.value = "dark"; update(); });

// Names the page has no control for (a misspelt `colour`, a parameter of a newer
// server), kept from the query it loaded, in order, so the URL, the preview and the
// snippets keep them and /ring.json's error for each shows in the status line.
let unknown = [];

// The controls from a query string: the page's own, or a preset's.
function load(search) {
  const params = new URLSearchParams(search);
  const known = new Set(fields.map(field => field.name));
  unknown = [...params].filter(([name]) => !known.has(name));
  for (const field of fields) {
    const input = controls[field.name];
    const value = params.get(field.name);
    if (field.type === "checkbox") input.checked = value !== null ? truthy(value) : field.def;
    // A live ring (src=) has no p.
    else input.value = value !== null ? value : (field.name === "p" && !params.has("src") && !params.has("from") ? "72" : field.def);
  }
}

function query(overrides) {
  const params = new URLSearchParams();
  for (const field of fields) {
    const input = controls[field.name];
    let value = field.type === "checkbox" ? input.checked : input.value.trim();
    if (overrides && field.name in overrides) value = overrides[field.name];
    if (field.type === "checkbox") { if (value) params.append(field.name, "1"); continue; }
    // p is required but where a document (src) or the clock (from) gives the value.
    const required = field.name === "p" && controls.src.value.trim() === "" && controls.from.value.trim() === "";
    if (required || (value !== "" && value !== field.def)) params.append(field.name, value);
  }
  for (const [name, value] of unknown) params.append(name, value);
  // Commas separate list items (p=72,45,90) and need no escape in a query.
  return params.toString().replace(/%2C/gi, ",");
}

// The swatch shows the colour the ring draws: the field's own, or the scheme's default
// when it is empty, and a dimmed swatch when the ring draws nothing there.
function cssColor(text) {
  const hex = text.replace(/^#/, "");
  if (/^([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(hex)) {
    const digits = hex.length <= 4 ? hex.split("").map(c => c + c).join("") : hex;
    return "#" + digits.slice(0, 6).toLowerCase();
  }
  probe.fillStyle = "#010203";
  probe.fillStyle = text;
  const parsed = probe.fillStyle;
  return parsed === "#010203" && text.toLowerCase() !== "#010203" ? null : (parsed.startsWith("#") ? parsed : null);
}

function paintSwatches() {
  const theme = controls.theme.value;
  const dark = theme === "dark" || (theme === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
  for (const field of fields) {
    const picker = swatches[field.name];
    if (!picker) continue;
    const text = controls[field.name].value.trim();
    const first = text.split(",")[0].trim();  // a per-ring list shows its first colour
    const color = text === "" ? (dark ? field.dark : field.light) : (first === "none" ? null : cssColor(first));
    picker.classList.toggle("none", color === null);
    if (color) picker.value = color;
  }
}

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"})[c]);
}

// Every change asks /ring.json for the service's own reading of the query: its errors go
// next to the controls they name, and the snippets are offered only for a ring the
// service would draw. `sequence` drops answers to queries that have since changed.
let sequence = 0;
function update() {
  paintSwatches();
  for (const [name, output] of Object.entries(outputs)) output.textContent = controls[name].value;
  const q = query();
  const kind = format();
  preview.src = "/ring." + kind + "?" + q;
  // A PNG at scale 2 has twice the pixels: show it at the ring's size, as the snippets do.
  preview.style.width = kind === "png" ? (controls.size.value.trim() || "120") + "px" : "";
  history.replaceState(null, "", "?" + q + (kind === "png" ? "#png" : ""));
  jsonLink.href = "/ring.json?" + q;
  pngNote.hidden = !(kind === "png" && controls.theme.value === "auto");
  const mine = ++sequence;
  retries = 0;
  snippets.setAttribute("aria-busy", "true");
  fetch("/ring.json?" + q).then(response => response.json()).then(body => {
    if (mine === sequence) describe(body, q, kind);
  }).catch(() => { if (mine === sequence) status.textContent = "The service did not answer."; });
}

function describe(body, q, kind) {
  snippets.removeAttribute("aria-busy");
  showErrors(body.errors || []);
  const refusal = body.valid ? body[kind].error : null;
  if (!body.valid || refusal) {
    const messages = refusal ? [refusal] : body.errors.map(error => error.message);
    invalid.textContent = (refusal ? "The service would refuse this " + kind.toUpperCase() : "This query is invalid")
      + ", so there is nothing to copy yet: " + messages.join("; ") + ".";
    invalid.hidden = false;
    for (const key in snippetAreas) {
      snippetAreas[key].value = "";
      snippetAreas[key].disabled = true;
      copyButtons[key].disabled = true;
      fit(snippetAreas[key]);
    }
    preview.alt = "Error image: " + messages[0];
    return;
  }
  invalid.hidden = true;
  // A live ring: where its values came from, and what they are now.
  if (body.source) {
    status.textContent = "Values read from " + body.source.url + ": " +
      body.rings.map(ring => ring.value).join(", ") + " (" + body.source.state + ", for " + body.source.maxAge + " s).";
  }
  const base = location.origin + "/ring." + kind + "?";
  const url = base + q;
  // The title when there is one, else every ring's percentage as its label writes it.
  const alt = controls.title.value.trim() || body.rings.map(ring => ring.percentageText).join(", ");
  preview.alt = alt;
  const size = body[kind].width / (kind === "png" ? Number(controls.scale.value || "1") : 1);
  const height = body[kind].height / (kind === "png" ? Number(controls.scale.value || "1") : 1);
  const text = {
    url: url,
    markdown: "![" + alt.replace(/[\[\]]/g, "") + "](" + url + ")",
    html: "<img src=\"" + escapeHTML(url) + "\" width=\"" + size + "\" height=\"" + height + "\" alt=\"" + escapeHTML(alt) + "\">",
    picture: "<picture>\n  <source media=\"(prefers-color-scheme: dark)\" srcset=\"" +
      escapeHTML(base + query({theme: "dark"})) + "\">\n  <img src=\"" + escapeHTML(base + query({theme: "light"})) +
      "\" width=\"" + size + "\" height=\"" + height + "\" alt=\"" + escapeHTML(alt) + "\">\n</picture>",
  };
  for (const key in snippetAreas) {
    snippetAreas[key].value = text[key];
    snippetAreas[key].disabled = false;
    copyButtons[key].disabled = false;
    fit(snippetAreas[key]);
  }
}

// A busy service answers an image with 503: ask with HEAD for its Retry-After, and load
// the image again after it, a few times. (Asking at the same time as the image would
// make a new large PNG two renders at once.)
let retries = 0;
preview.addEventListener("error", () => {
  const mine = sequence;
  const src = preview.getAttribute("src");
  fetch(src, {method: "HEAD"}).then(response => {
    if (mine !== sequence || response.status !== 503 || retries >= 5) return;
    status.textContent = "The service is busy rendering; trying again.";
    retries += 1;
    const delay = 1000 * Number(response.headers.get("Retry-After") || "1");
    setTimeout(() => { if (mine === sequence) preview.src = src.replace(/&retry=\d+$/, "") + "&retry=" + retries; }, delay);
  }).catch(() => { if (mine === sequence) status.textContent = "The service did not answer."; });
});
preview.addEventListener("load", () => { if (status.textContent.startsWith("The service is busy")) status.textContent = ""; });

// Each error next to the control it names; one naming no control (an unknown
// parameter, the whole query) in the status line.
function showErrors(errors) {
  const unplaced = [];
  for (const field of fields) {
    document.getElementById("e-" + field.name).textContent = "";
    controls[field.name].removeAttribute("aria-invalid");
  }
  for (const error of errors) {
    const slot = document.getElementById("e-" + error.parameter);
    if (slot && controls[error.parameter]) {
      slot.textContent = (slot.textContent ? slot.textContent + " " : "") + error.message;
      controls[error.parameter].setAttribute("aria-invalid", "true");
    } else {
      unplaced.push(error.message);
    }
  }
  status.textContent = unplaced.join("; ");
}

function copy(area, button) {
  const done = () => { button.textContent = "Copied"; setTimeout(() => { button.textContent = "Copy"; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(area.value).then(done, () => { area.select(); document.execCommand("copy"); done(); });
  } else {
    area.select();
    document.execCommand("copy");
    done();
  }
}

formatPNG.checked = location.hash === "#png";
document.getElementById("format-svg").checked = !formatPNG.checked;
load(location.search);
update();
