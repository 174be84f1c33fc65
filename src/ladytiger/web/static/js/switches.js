// On/off preferences kept in this browser (sound, asking before a move, trick panels): "on"
// or "off" under a key of localStorage. Without storage (a private window, say) a choice
// lasts for the page only, and an unset one is the switch's default.

/** Whether the switch under `key` is on; `otherwise` when it was never set or cannot be read. */
export function switchOn(key, otherwise = false) {
  try {
    const kept = localStorage.getItem(key);
    if (kept === "on" || kept === "off") return kept === "on";
  } catch (error) {
    // No storage: the default.
  }
  return otherwise;
}

export function keepSwitch(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch (error) {
    // The choice lasts for this page only.
  }
}
