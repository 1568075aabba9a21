// "Your turn", seen and heard from another tab: the title, the favicon (a green dot) and a short chime.

const ICON = "/static/img/meeple.svg";
const TURN_ICON = "/static/img/meeple-turn.svg";
let audio = null;

/** Mark the tab when it is the viewer's turn (title prefix and favicon), and unmark it after. */
export function showTurnCue(mine, yourTurnText, baseTitle) {
  document.title = mine ? `● ${yourTurnText} · ${baseTitle}` : baseTitle;
  const icon = document.getElementById("favicon");
  if (icon && icon.getAttribute("href") !== (mine ? TURN_ICON : ICON)) icon.setAttribute("href", mine ? TURN_ICON : ICON);
}

// Browsers keep audio silent until the page is touched once: make the context ready at that moment.
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
    } catch { /* no audio on this device */ }
  }, { once: true, capture: true });
}

/** Two short rising notes; a "meeple:sound" event says it was played (the page tests listen). */
export function playTurnSound() {
  document.dispatchEvent(new CustomEvent("meeple:sound", { detail: "turn" }));
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime;
    for (const [i, frequency] of [587, 880].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.12, start + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.2);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.12);
      tone.stop(start + i * 0.12 + 0.22);
    }
  } catch { /* no audio on this device */ }
}
