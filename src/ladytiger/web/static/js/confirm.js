// "Ask before each move": for a player who fears a slip of the finger (a phone, a card next
// to the one meant, a guess that ends the contest). With it on, a click only chooses: the
// chosen control is marked and a bar asks; a second click on it, "Play it" or Enter sends
// it; another move changes the choice; "Cancel" or Escape drops it. A choice lasts only as
// long as the position it was made in. The preference lives in this browser.
import {capitalise, h} from "./dom.js";
import {keepSwitch, switchOn} from "./switches.js";

const KEY = "ladytiger.confirmMoves";

export function confirmWanted() {
  return switchOn(KEY);
}

/**
 * `send(action, element)` plays a move; `named(text)` is a move's text with seats by name.
 * Returns {offer(action, version) -> true when the move is to be sent now, seen(version,
 * yourTurn) (a new view arrived), forget(), mark(root), toggle() (the checkbox for the moves
 * panel), bar}.
 */
export function createConfirm({send, named}) {
  let wanted = confirmWanted();
  let choice = null; // {action, version}
  const words = h("span", {class: "confirm-words", id: "confirm-words"});
  const playIt = h("button", {type: "button", class: "primary small", id: "confirm-play"},
    "Play it");
  const cancel = h("button", {type: "button", class: "small", id: "confirm-cancel"}, "Cancel");
  const bar = h("div", {class: "confirm-bar", id: "confirm-bar", role: "group",
    "aria-labelledby": "confirm-words", hidden: true}, words, playIt, cancel);

  function show() {
    bar.hidden = choice === null;
    if (choice) words.textContent = `${capitalise(named(choice.action.text))}?`;
    mark(document);
  }

  function mark(root) {
    for (const element of root.querySelectorAll(".move.chosen")) {
      element.classList.remove("chosen");
    }
    if (!choice) return;
    for (const element of root.querySelectorAll(".move[data-move]")) {
      if (element.dataset.move === choice.action.text) element.classList.add("chosen");
    }
  }

  function forget() {
    if (choice === null) return;
    choice = null;
    show();
  }

  function confirm() {
    if (!choice) return;
    const {action} = choice;
    choice = null;
    show();
    send(action, document.querySelector(`.move[data-move="${CSS.escape(action.text)}"]`));
  }

  playIt.addEventListener("click", confirm);
  cancel.addEventListener("click", forget);
  document.addEventListener("keydown", (event) => {
    if (!choice || event.defaultPrevented) return;
    if (event.key === "Escape") {
      forget();
    } else if (event.key === "Enter" && event.target === document.body) {
      event.preventDefault();
      confirm();
    }
  });

  /** A move was clicked: true if it is to be sent now, false if it waits for a yes. */
  function offer(action, version) {
    if (!wanted) return true;
    if (choice && choice.version === version && choice.action.id === action.id) {
      choice = null;
      show();
      return true;
    }
    choice = {action, version};
    show();
    playIt.focus({preventScroll: true});
    return false;
  }

  /** The position moved on (or the turn passed): a choice made in the old one is void. */
  function seen(version, yourTurn) {
    if (choice && (!yourTurn || choice.version !== version)) forget();
  }

  function toggle() {
    const box = h("input", {type: "checkbox", id: "confirm-moves"});
    box.checked = wanted;
    box.addEventListener("change", () => {
      wanted = box.checked;
      keepSwitch(KEY, wanted);
      if (!wanted) forget();
    });
    return h("label", {class: "confirm-toggle", for: "confirm-moves",
      title: "A click chooses a move; a second click, Play it or Enter plays it"},
    box, " Ask before each move");
  }

  return {offer, seen, forget, mark, toggle, bar};
}
