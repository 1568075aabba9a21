// Sign in and sign up forms.
import { api, routes } from "./api.js";

/** Where to go once signed in: the page that sent here (`?next=`, this site only), else home. */
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

const form = document.getElementById("account-form");
const error = document.getElementById("account-error");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const body = { name: data.get("name"), password: data.get("password") };
  try {
    await api("POST", form.dataset.mode === "signup" ? routes.register : routes.login, body);
    location.href = nextPage();
  } catch (failure) {
    error.hidden = false;
    error.textContent = failure.message;
  }
});
