// A form's field that matters for one choice of another alone (a time bank's amounts, for the
// bank clock) shows only while that choice is made: `data-shown-when="clock=bank"`. Without
// scripts every field shows, and the server ignores what the choice made irrelevant.
for (const field of document.querySelectorAll("[data-shown-when]")) {
  const [name, value] = field.dataset.shownWhen.split("=");
  const inputs = [...field.closest("form").elements].filter((input) => input.name === name);
  const chosen = () => inputs.find((input) => input.type !== "radio" || input.checked)?.value ?? "";
  const update = () => {
    field.hidden = chosen() !== value;
  };
  for (const input of inputs) input.addEventListener("change", update);
  update();
}
