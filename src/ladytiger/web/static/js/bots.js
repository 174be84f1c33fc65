// Bot levels offered when a table is made: each is a registered bot of the same name
// (ladytiger.bots.levels), which picks the game's own player for that level. A level takes no
// options: its budget is part of what the ladder in docs/bots.md measured.
// Only levels the server has (GET /api/bots) are offered.

export const STRENGTHS = [
  {key: "beginner", label: "Bot: beginner", short: "beginner bot",
    about: "Knows the rules, makes a beginner's slips"},
  {key: "casual", label: "Bot: casual", short: "casual bot",
    about: "Plays by the rules of thumb"},
  {key: "strong", label: "Bot: strong", short: "strong bot",
    about: "Thinks ahead briefly before each move"},
  {key: "expert", label: "Bot: expert", short: "expert bot",
    about: "Thinks ahead up to a second and a half a move"},
];

// Bots that tables made before the levels still name (their specs must still load).
const OLDER_BOTS = {
  random: "random bot",
  heuristic: "casual bot",
  ismcts: "search bot",
  labyrinth_search: "search bot",
  hoard_planner: "planner bot",
};

/** The levels for `game`, each resolved to {key, label, about, bot, options}. */
export function strengthsFor(game, available) {
  return STRENGTHS.filter((level) => available.has(level.key)).map((level) => (
    {key: level.key, label: level.label, about: level.about, bot: level.key, options: {}}));
}

/** How the page names a bot seat: "expert bot", or the bot's own name. */
export function botLabel(seatPlan) {
  if (!seatPlan || seatPlan.kind !== "bot") return "human";
  const level = STRENGTHS.find((s) => s.key === seatPlan.bot);
  if (level) return level.short;
  if (OLDER_BOTS[seatPlan.bot]) return OLDER_BOTS[seatPlan.bot];
  // The guided game's scripted player.
  if (seatPlan.bot === "lesson") return "follows the lesson";
  return `${seatPlan.bot} bot`;
}
