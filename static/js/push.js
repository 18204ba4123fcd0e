// The profile's "turn on notifications for this browser": registers the service worker
// (/sw.js), asks the browser's push service for a subscription with the site's VAPID key and
// hands it to the site. Says what to do where push cannot work (an iPhone or iPad before
// "Add to Home Screen", a browser without push, notifications blocked).
const card = document.getElementById("push-card");

function csrf() {
  return (
    document.cookie
      .split("; ")
      .find((c) => c.startsWith("csrftoken="))
      ?.slice(10) ?? ""
  );
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function say(text) {
  const status = document.getElementById("push-status");
  if (status) status.textContent = text;
}

export function pushSupport(win = window) {
  const nav = win.navigator;
  const ios = /iPhone|iPad|iPod/.test(nav.userAgent) || (nav.platform === "MacIntel" && nav.maxTouchPoints > 1);
  const standalone = win.matchMedia?.("(display-mode: standalone)").matches || nav.standalone === true;
  if (ios && !standalone) {
    return "On an iPhone or iPad, notifications need the site on your Home Screen: tap Share, then “Add to Home Screen”, open Ashen Vault from there and turn them on again.";
  }
  if (!("serviceWorker" in nav) || !("PushManager" in win) || !("Notification" in win)) {
    return "This browser cannot receive notifications from sites. Try a recent Firefox, Chrome, Edge or Safari, or rely on email.";
  }
  if (!win.isSecureContext) return "Notifications need the site over https.";
  if (win.Notification.permission === "denied") {
    return "Notifications are blocked for this site: allow them in the browser's site settings, then try again.";
  }
  return "";
}

async function turnOn(button) {
  button.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      say("The browser did not allow notifications.");
      return;
    }
    const registration = await navigator.serviceWorker.register(card.dataset.worker, { scope: "/" });
    await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(card.dataset.key) }));
    const answer = await fetch(card.dataset.subscribe, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(subscription.toJSON()),
    });
    if (!answer.ok) {
      say((await answer.json().catch(() => ({}))).detail || "The site could not store this browser.");
      return;
    }
    say("Notifications are on for this browser.");
    window.location.reload();
  } catch (error) {
    say(`This browser could not turn notifications on (${error?.name || "error"}).`);
  } finally {
    button.disabled = false;
  }
}

if (card) {
  const button = document.getElementById("push-on");
  const wrapper = document.getElementById("push-switch");
  const problem = pushSupport();
  if (!card.dataset.key) {
    say("Push notifications are not set up on this site yet.");
  } else if (problem) {
    say(problem);
  } else if (button && wrapper) {
    wrapper.hidden = false;
    button.addEventListener("click", () => turnOn(button));
  }
}
