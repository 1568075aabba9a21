// The friends page: the players one follows, who of them is online now and which public games
// they play (a link to watch), a challenge to any of them, unfollow; follow a player by name;
// the notices one wants about them. The list is read again every few seconds.
import { api, currentUser } from "./api.js";
import { el, t } from "./i18n.js";
import { avatar } from "./avatar.js";
import { nameNodes, nameText } from "./names.js";
import { followRoute } from "./follow.js";

const $ = (id) => document.getElementById(id);
const EVERY_MS = 15000;

function showError(error) {
  $("friends-error").hidden = !error;
  $("friends-error").textContent = error ? error.message : "";
}

/** One followed player: name (the profile), online or not, what they play, and the actions. */
function friendLine(friend) {
  const name = nameText(friend.name, friend.bot);
  const state = [el("span", { class: `presence${friend.online ? " online" : ""}` },
    t(friend.online ? "js.friends.online" : "js.friends.offline"))];
  for (const game of friend.playing) {
    const gameName = t("game." + game.game);
    state.push(" · ", t("js.friends.playing", { game: gameName }), " ",
      el("a", { class: "watch", href: `/table/${encodeURIComponent(game.table_id)}`,
        "aria-label": t("js.friends.watch_name", { name, game: gameName }) }, t("js.friends.watch")));
  }
  return el("li", { class: "friend", dataset: { name: friend.name, online: friend.online ? "1" : "" } },
    el("a", { class: "player-link", href: `/profile/${encodeURIComponent(friend.name)}` },
      avatar(friend.name), el("span", {}, ...nameNodes(friend.name, friend.bot))),
    el("span", { class: "friend-state" }, ...state),
    el("span", { class: "friend-actions" },
      el("button", {
        type: "button", class: "primary challenge", "aria-label": t("js.friends.challenge_name", { name }),
        onclick: async () => (await import("./challenge_dialog.js")).openChallenge(friend.name, friend.bot),
      }, t("js.friends.challenge")),
      el("button", {
        type: "button", class: "unfollow", "aria-label": t("js.friends.unfollow_name", { name }),
        onclick: () => change("DELETE", friend.name),
      }, t("js.friends.unfollow"))));
}

function draw(listing) {
  $("friends-list").replaceChildren(...listing.friends.map(friendLine));
  $("friends-empty").hidden = listing.friends.length > 0;
  $("friends-count").textContent = t("js.friends.count", { count: listing.count, limit: listing.limit });
  $("notice-online").checked = listing.notices.online;
  $("notice-tournaments").checked = listing.notices.tournaments;
}

async function load() {
  try {
    draw(await api("GET", "/api/me/following"));
  } catch (error) {
    showError(error);
  }
}

/** Follow (PUT) or unfollow (DELETE) `name`, then read the list again. */
async function change(method, name) {
  try {
    await api(method, followRoute(name));
    showError(null);
  } catch (error) {
    showError(error);
    return false;
  }
  await load();
  return true;
}

async function start() {
  const me = await currentUser().catch(() => null);
  if (!me || me.guest) {
    $(me ? "friends-guest" : "friends-nobody").hidden = false;
    return;
  }
  $("friends-body").hidden = false;
  $("follow-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("follow-name");
    if (await change("PUT", input.value.trim())) input.value = "";
  });
  for (const [id, kind] of [["notice-online", "online"], ["notice-tournaments", "tournaments"]]) {
    $(id).addEventListener("change", async () => {
      try {
        await api("PUT", "/api/me/friend-notices", { [kind]: $(id).checked });
        showError(null);
      } catch (error) {
        showError(error);
      }
    });
  }
  await load();
  setInterval(load, EVERY_MS);
}

start();
