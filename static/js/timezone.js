// The browser's time zone: it fills the sign-up form's hidden field, and is sent once for a
// logged-in player who has none yet (the server keeps a zone already chosen on the profile).
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
const field = document.querySelector('input[type="hidden"][name="time_zone"]');
if (field && !field.value) field.value = zone;

const url = document.querySelector("script[data-time-zone-url]")?.dataset.timeZoneUrl;
if (url && zone) {
  const csrf =
    document.cookie
      .split("; ")
      .find((c) => c.startsWith("csrftoken="))
      ?.slice(10) ?? "";
  fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-CSRFToken": csrf },
    body: new URLSearchParams({ time_zone: zone }),
  }).catch(() => {}); // the next page tries again
}
