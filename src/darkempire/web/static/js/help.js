// The rules help dialog: every entry of rules.js, opened at the one a "?" button names.
import { ALL } from "./rules.js";
import { h } from "./dom.js";

function fill() {
  const body = document.getElementById("help-body");
  if (body.childElementCount) return;
  body.append(h("dl", {}, ALL.map((entry) => [
    h("dt", { id: `help-${entry.key}`, tabindex: "-1" }, entry.title),
    h("dd", {}, entry.text, " ", h("span", { class: "rule" }, `Rules ${entry.rules.join(", ")} of the spec (spec/darkempire/rules.md).`)),
  ])));
}

export function showHelp(key) {
  fill();
  const dialog = document.getElementById("help");
  if (!dialog.open) dialog.showModal();
  const entry = key ? document.getElementById(`help-${key}`) : null;
  if (entry) { entry.scrollIntoView({ block: "start" }); entry.focus(); }
}

export function installHelp() {
  document.getElementById("help-button").addEventListener("click", () => showHelp(null));
}
