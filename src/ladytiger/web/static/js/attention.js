// Telling a player it is their turn when they look elsewhere: a marker in the tab's title, a
// badge on the tab's icon, and, if they ask for it, a soft two-note chime (and softer notes
// at each reveal). The notes are made with oscillators: no sound file to fetch, and nothing
// plays until the player turns sound on.
import {h} from "./dom.js";
import {keepSwitch, switchOn} from "./switches.js";

const SOUND_KEY = "ladytiger.sound";
const ICON = "/static/img/favicon.svg";

const state = {badge: null, plain: null, on: false, audio: null, unlocked: false};

function iconLink() {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = h("link", {rel: "icon", href: ICON, type: "image/svg+xml"});
    document.head.append(link);
  }
  if (state.plain === null) state.plain = {href: link.getAttribute("href"), type: link.type};
  return link;
}

/** The site's icon with a round badge in its corner, as a data: URL (drawn once). */
function badgeIcon() {
  if (state.badge) return state.badge;
  state.badge = new Promise((resolve) => {
    const image = new Image();
    const draw = (withImage) => {
      const size = 64;
      const canvas = document.createElement("canvas");
      canvas.width = size;
      canvas.height = size;
      const pen = canvas.getContext("2d");
      if (!pen) {
        resolve(null);
        return;
      }
      if (withImage) pen.drawImage(image, 0, 0, size, size);
      else {
        pen.fillStyle = "#1e4a3d";
        pen.beginPath();
        pen.arc(size / 2, size / 2, size / 2 - 2, 0, Math.PI * 2);
        pen.fill();
      }
      // A ring of the page's colour keeps the badge apart from the icon beneath it.
      pen.beginPath();
      pen.arc(size - 17, 17, 15, 0, Math.PI * 2);
      pen.fillStyle = "#fffdf8";
      pen.fill();
      pen.beginPath();
      pen.arc(size - 17, 17, 11.5, 0, Math.PI * 2);
      pen.fillStyle = "#d9480f";
      pen.fill();
      try {
        resolve(canvas.toDataURL("image/png"));
      } catch (error) {
        resolve(null);
      }
    };
    image.onload = () => draw(true);
    image.onerror = () => draw(false);
    image.src = ICON;
  });
  return state.badge;
}

/** Show (or take away) the badge on the tab's icon. */
export async function setTurnSignal(on) {
  if (on === state.on) return;
  state.on = on;
  const link = iconLink();
  if (on) {
    const url = await badgeIcon();
    if (!url || !state.on) return;
    link.type = "image/png";
    link.href = url;
    document.body.dataset.badge = "1";
  } else {
    link.type = state.plain.type || "image/svg+xml";
    link.href = state.plain.href || ICON;
    document.body.dataset.badge = "0";
  }
}

// ------------------------------------------------------------------ the chime
export function soundWanted() {
  return switchOn(SOUND_KEY);
}

function audio() {
  if (state.audio) return state.audio;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    state.audio = new Context();
  } catch (error) {
    return null;
  }
  return state.audio;
}

/**
 * Soft notes, one after another: `notes` as [offset in seconds, pitch in Hz], each rising to
 * `peak` and fading over `length` seconds.
 */
function play(notes, {wave, peak, rise, length}) {
  const context = audio();
  if (!context) return;
  if (context.state === "suspended") context.resume().catch(() => {});
  const start = context.currentTime + 0.02;
  for (const [offset, pitch] of notes) {
    const tone = context.createOscillator();
    const level = context.createGain();
    tone.type = wave;
    tone.frequency.value = pitch;
    level.gain.setValueAtTime(0, start + offset);
    level.gain.linearRampToValueAtTime(peak, start + offset + rise);
    level.gain.exponentialRampToValueAtTime(0.0001, start + offset + length);
    tone.connect(level).connect(context.destination);
    tone.start(start + offset);
    tone.stop(start + offset + length + 0.05);
  }
}

/** Two short, quiet notes, a fifth apart. */
export function chime() {
  play([[0, 659.25], [0.16, 987.77]], {wave: "sine", peak: 0.07, rise: 0.02, length: 0.45});
}

/**
 * Browsers start audio only after the person touched the page: wake the audio on the first
 * click or key if the player had turned the chime on in an earlier visit.
 */
function unlockOnGesture() {
  if (state.unlocked) return;
  state.unlocked = true;
  const wake = () => {
    if (soundWanted()) {
      const context = audio();
      if (context && context.state === "suspended") context.resume().catch(() => {});
    }
  };
  document.addEventListener("pointerdown", wake, {once: true, capture: true});
  document.addEventListener("keydown", wake, {once: true, capture: true});
}

/** How many of each sound this page played (on the body, where a test can read it). */
function count(what) {
  document.body.dataset[what] = String(Number(document.body.dataset[what] || 0) + 1);
}

/** Play the chime for a turn that just arrived, if the player turned sound on. */
export function turnArrived() {
  if (!soundWanted()) return;
  count("turnSounds");
  chime();
}

/**
 * A reveal (a contest's doors, a trick won, a score sheet): three soft falling notes, quieter
 * than the turn's chime, so that the two are told apart with eyes closed.
 */
export function revealArrived() {
  if (!soundWanted()) return;
  count("revealSounds");
  play([[0, 783.99], [0.11, 659.25], [0.22, 523.25]],
    {wave: "triangle", peak: 0.045, rise: 0.015, length: 0.32});
}

/** The on/off button for the chime (off until the player turns it on). */
export function soundToggle() {
  unlockOnGesture();
  const button = h("button", {type: "button", class: "small sound-toggle", id: "sound-toggle"});
  const draw = () => {
    const on = soundWanted();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "Sound on" : "Sound off";
    button.title = on ? "Sound is on: a soft chime when it becomes your turn, and a softer one at each reveal. Click to mute."
      : "Sound is off. Click for a soft chime when it becomes your turn and a softer one at each reveal.";
  };
  button.addEventListener("click", () => {
    const on = !soundWanted();
    keepSwitch(SOUND_KEY, on);
    draw();
    if (on) chime(); // a sample, and the gesture that lets the page play sound later
  });
  draw();
  return button;
}
