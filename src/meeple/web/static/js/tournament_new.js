// The form that creates a tournament (POST /api/tournaments), then opens its page (a
// private one's with its link's secret, to pass on).
import { api, showRefusal } from "./api.js";

const $ = (id) => document.getElementById(id);

function showFields() {
  const arena = $("tn-format").value === "arena";
  $("tn-rounds-label").hidden = arena;
  $("tn-minutes-label").hidden = !arena;
  $("tn-days-label").hidden = arena || !$("tn-clock").value.startsWith("turn:");
}

function settings() {
  const [pace, seconds] = $("tn-clock").value.split(":");
  const arena = $("tn-format").value === "arena";
  const body = {
    name: $("tn-name").value.trim(),
    game: $("tn-game").value,
    format: arena ? "arena" : "swiss",
    pace,
    move_seconds: Number(seconds),
    starts_at: Date.now() / 1000 + Number($("tn-starts").value) * 60,
    max_players: Number($("tn-max").value),
    rated: $("tn-rated").checked,
    bots_allowed: $("tn-bots").checked,
    private: $("tn-private").checked,
  };
  if (arena) body.minutes = Number($("tn-minutes").value);
  else body.rounds = Number($("tn-rounds").value);
  if (!arena && pace === "turn") body.round_days = Number($("tn-days").value);
  return body;
}

$("tn-format").addEventListener("change", showFields);
$("tn-clock").addEventListener("change", showFields);
$("tournament-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const made = await api("POST", "/api/tournaments", settings());
    const link = `/tournaments/${encodeURIComponent(made.id)}`;
    location.assign(made.secret ? `${link}?secret=${encodeURIComponent(made.secret)}` : link);
  } catch (error) {
    $("tn-error").hidden = false;
    showRefusal($("tn-error"), error);
  }
});
showFields();
