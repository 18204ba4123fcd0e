// The room's "Copy" button for the invite link. Delegated: live updates replace the button.
document.addEventListener("click", async (event) => {
  if (event.target.id !== "copy-invite") return;
  const input = document.getElementById("invite-url");
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    event.target.textContent = "Copied";
  } catch {
    document.execCommand("copy");
  }
});
