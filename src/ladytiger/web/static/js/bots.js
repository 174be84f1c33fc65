// Bot strengths offered when a table is made: each names a registered bot and its options.
// Only strengths whose bot the server has (GET /api/bots) are offered.

const HARD_BY_GAME = {
  labyrinth: {bot: "labyrinth_search", options: {seconds: 1.0}},
  hoard: {bot: "hoard_planner", options: {seconds: 1.0}},
};

export const STRENGTHS = [
  {key: "easy", label: "Bot: easy", short: "easy bot", bot: "random", options: {}},
  {key: "medium", label: "Bot: medium", short: "medium bot", bot: "heuristic", options: {}},
  {key: "hard", label: "Bot: hard", short: "hard bot", bot: "ismcts", options: {seconds: 1.0},
    byGame: HARD_BY_GAME},
];

/** The strengths for `game`, each resolved to {key, label, bot, options}. */
export function strengthsFor(game, available) {
  const out = [];
  for (const strength of STRENGTHS) {
    const choice = (strength.byGame && strength.byGame[game]) || strength;
    const bot = available.has(choice.bot) ? choice : (available.has(strength.bot) ? strength : null);
    if (bot) out.push({key: strength.key, label: strength.label, bot: bot.bot, options: bot.options});
  }
  return out;
}

/** How the page names a bot seat: "easy bot", or the bot's own name. */
export function botLabel(seatPlan) {
  if (!seatPlan || seatPlan.kind !== "bot") return "human";
  for (const strength of STRENGTHS) {
    const names = [strength.bot, ...Object.values(strength.byGame || {}).map((c) => c.bot)];
    if (names.includes(seatPlan.bot)) return strength.short;
  }
  // The guided game's scripted player.
  if (seatPlan.bot === "lesson") return "follows the lesson";
  return `${seatPlan.bot} bot`;
}
