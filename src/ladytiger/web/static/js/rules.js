// A game's rules page (/rules/<game>): the text is the server's; each example scene is drawn
// here by the game's own view module, read-only, from the position the server built by
// playing the scene's moves (/api/guides/<game>). Nothing on the page can be played.
import {capitalise} from "./dom.js";
import {drawView, loadView, makeContext} from "./frame.js";
import {fetchGuide} from "./rulehelp.js";

function exampleBind(element, text) {
  element.dataset.move = text;
  element.classList.add("disabled");
  element.setAttribute("aria-disabled", "true");
  element.tabIndex = -1;
  element.title = `${capitalise(text)} (an example)`;
  return element;
}

/**
 * Show only the parts of the view that the scene is about (and whatever holds them). A
 * view that no longer has such parts is shown whole rather than not at all.
 */
function focusOn(root, selectors) {
  if (!selectors || !selectors.length) return;
  const kept = [...root.querySelectorAll(selectors.join(","))];
  if (!kept.length) return;
  for (const element of root.querySelectorAll("*")) {
    if (kept.some((part) => part === element || part.contains(element) || element.contains(part))) {
      continue;
    }
    element.classList.add("scene-cut");
  }
  root.classList.add("scene-focused");
}

export function drawScene(figure, scene, entry, game) {
  const root = figure.querySelector(".scene-view");
  const observation = scene.observation;
  const log = observation.log || [];
  const ctx = makeContext({seat: scene.seat, bind: exampleBind,
    lastMove: log.length ? log[log.length - 1] : null, names: scene.names,
    extra: {replay: true, example: true}});
  const view = {type: "view", table: "example", version: 0, status: "finished",
    seat: scene.seat, current_player: observation.current_player, your_turn: false,
    deadline: null, observation, legal_actions: []};
  drawView(root, entry, view, ctx);
  root.classList.add("scene-view", "game-root");
  root.removeAttribute("aria-busy");
  root.setAttribute("inert", "");
  focusOn(root, scene.focus);
  figure.dataset.drawn = "1";
  figure.dataset.game = game;
}

async function main() {
  const game = document.body.dataset.game;
  if (!game) return;
  const figures = [...document.querySelectorAll("figure.scene[data-scene]")];
  try {
    const [guide, entry] = await Promise.all([fetchGuide(game), loadView(game)]);
    const scenes = new Map(guide.sections.flatMap((s) => s.scenes).map((s) => [s.id, s]));
    for (const figure of figures) {
      const scene = scenes.get(figure.dataset.scene);
      if (scene) drawScene(figure, scene, entry, game);
    }
  } catch (error) {
    console.error("the examples could not be drawn", error);
    for (const figure of figures) {
      const wait = figure.querySelector(".scene-wait");
      if (wait) wait.textContent = "This example could not be drawn.";
    }
  }
  document.body.dataset.ready = "1";
}

main();
