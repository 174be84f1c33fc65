/* The compiled Tighee engine: the hot verbs of a Tighee state, in C.
 *
 * It mirrors src/ladytiger/games/tighee.py, which stays the reference: the same card and
 * action numbering, the same phases, the same chance outcomes and probabilities. Only the
 * verbs a playout needs live here (whose turn, legal moves, chance, apply, outcome, clone,
 * history); everything a person reads (texts, observations, logs, explanations of illegal
 * moves) is answered by the reference state rebuilt from the history, in
 * ladytiger/games/tighee_compiled.py. Rules page: docs/rules/tighee.md ("Engine notes").
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Cards: colour * 12 + (number - 1); Black is colour 4. */
#define STRIDE 12
#define NUM_CARDS 60
#define BLACK 4
/* Player actions and chance outcomes, as in tighee.py. */
#define PUT_OUT 0
#define PLAY 60
#define DEAL 0
#define REVEAL 60
#define FIRST_LEAD 120
#define CHANCE (-1)
#define TERMINAL (-4)
#define MAX_PLAYERS 4
#define MAX_HISTORY 640 /* longer than any game: 4 players, 4 rounds of 132 steps, + 1 */

enum phase { CHOOSING_LEAD, DEALING, PUTTING_OUT, REVEALING, PLAYING, GAME_OVER };

static uint64_t COLOUR_MASKS[5];

typedef struct {
    PyObject_HEAD
    PyObject *game; /* the TigheeGame these states belong to */
    /* The set-up of the game, from its options. */
    int n, hand_size, put_out_count;
    uint64_t deck_mask;
    /* The game so far. */
    int phase, round, first_lead;
    int totals[MAX_PLAYERS];
    int last_points[MAX_PLAYERS]; /* the points of the round just ended: they break ties */
    /* The round in play. */
    uint64_t undealt, forest_deck;
    uint64_t hands[MAX_PLAYERS], put_out[MAX_PLAYERS];
    int dealt, putter, forest, lead, turn, follow, trick_len;
    int trick[MAX_PLAYERS];
    int won[MAX_PLAYERS];
    /* What happened: every action and who took it (a seat, or CHANCE). */
    int length;
    int16_t history[MAX_HISTORY];
    int8_t actors[MAX_HISTORY];
} EngineObject;

/* ------------------------------------------------------------------ rules */
static inline int counts_as(int card, int forest)
{
    int colour = card / STRIDE;
    return colour == BLACK ? forest / STRIDE : colour;
}

/* The cards of `hand` a player may play; follow is the colour to follow, -1 on the lead. */
static inline uint64_t playable(uint64_t hand, int follow)
{
    if (follow < 0)
        return hand;
    uint64_t own = hand & COLOUR_MASKS[follow];
    if (!own)
        return hand;
    if (follow == BLACK)
        return own;
    return own | (hand & COLOUR_MASKS[BLACK]);
}

/* Position in play order of the card that takes the trick (Flow of the Game 5). */
static int trick_winner(const int *cards, int count, int forest)
{
    int follow = counts_as(cards[0], forest);
    int colours[MAX_PLAYERS];
    int all_follow = 1;
    for (int p = 0; p < count; p++) {
        colours[p] = counts_as(cards[p], forest);
        if (colours[p] != follow)
            all_follow = 0;
    }
    int best;
    if (all_follow) {
        best = 0;
        for (int p = 1; p < count; p++)
            if (cards[p] % STRIDE >= cards[best] % STRIDE)
                best = p;
        return best;
    }
    best = -1;
    for (int p = 0; p < count; p++)
        if (colours[p] != follow && (best < 0 || cards[p] % STRIDE <= cards[best] % STRIDE))
            best = p;
    return best;
}

static int round_points(int tricks)
{
    switch (tricks) {
    case 0: return 0;
    case 4: return 50;
    case 8: return 100;
    case 12: return 169;
    default: return -10 * tricks;
    }
}

static int current_player(const EngineObject *s)
{
    switch (s->phase) {
    case PLAYING: return s->turn;
    case PUTTING_OUT: return s->putter;
    case GAME_OVER: return TERMINAL;
    default: return CHANCE;
    }
}

static void new_round_zones(EngineObject *s)
{
    s->undealt = s->deck_mask;
    s->dealt = 0;
    for (int seat = 0; seat < MAX_PLAYERS; seat++) {
        s->hands[seat] = 0;
        s->put_out[seat] = 0;
        s->won[seat] = 0;
    }
    s->putter = 0;
    s->forest_deck = 0;
    s->forest = -1;
    s->lead = s->turn = s->first_lead;
    s->trick_len = 0;
    s->follow = -1;
}

static int is_legal(const EngineObject *s, long action)
{
    long card;
    switch (s->phase) {
    case PLAYING:
        card = action - PLAY;
        return 0 <= card && card < NUM_CARDS
               && (playable(s->hands[s->turn], s->follow) >> card & 1);
    case DEALING:
        return 0 <= action && action < REVEAL && (s->undealt >> action & 1);
    case REVEALING:
        card = action - REVEAL;
        return 0 <= card && card < NUM_CARDS && (s->forest_deck >> card & 1);
    case PUTTING_OUT:
        return 0 <= action && action < PLAY && (s->hands[s->putter] >> action & 1);
    case CHOOSING_LEAD:
        return FIRST_LEAD <= action && action < FIRST_LEAD + s->n;
    default:
        return 0;
    }
}

static void end_round(EngineObject *s)
{
    int n = s->n;
    for (int seat = 0; seat < n; seat++) {
        s->last_points[seat] = round_points(s->won[seat]);
        s->totals[seat] += s->last_points[seat];
    }
    if (s->round + 1 == n) { /* as many rounds as players */
        s->phase = GAME_OVER;
        return;
    }
    s->round++;
    /* The lowest total leads; among equals, the first clockwise after the previous lead. */
    int low = s->totals[0];
    for (int seat = 1; seat < n; seat++)
        if (s->totals[seat] < low)
            low = s->totals[seat];
    for (int step = 1; step <= n; step++) {
        int seat = (s->first_lead + step) % n;
        if (s->totals[seat] == low) {
            s->first_lead = seat;
            break;
        }
    }
    new_round_zones(s);
    s->phase = DEALING;
}

static void play(EngineObject *s, int card)
{
    s->hands[s->turn] ^= (uint64_t)1 << card;
    if (s->trick_len == 0)
        s->follow = counts_as(card, s->forest);
    s->trick[s->trick_len++] = card;
    if (s->trick_len < s->n) {
        s->turn = (s->turn + 1) % s->n;
        return;
    }
    int winner = (s->lead + trick_winner(s->trick, s->trick_len, s->forest)) % s->n;
    s->won[winner]++;
    s->trick_len = 0;
    s->forest = -1;
    s->follow = -1;
    s->lead = s->turn = winner;
    if (s->hands[winner])
        s->phase = REVEALING;
    else
        end_round(s);
}

static void apply(EngineObject *s, int action)
{
    int actor = current_player(s);
    uint64_t bit;
    switch (s->phase) {
    case DEALING:
        bit = (uint64_t)1 << (action - DEAL);
        s->hands[s->dealt % s->n] |= bit;
        s->undealt ^= bit;
        s->dealt++;
        if (s->dealt == s->n * s->hand_size) {
            s->phase = PUTTING_OUT;
            s->putter = 0;
        }
        break;
    case PLAYING:
        play(s, action - PLAY);
        break;
    case REVEALING:
        s->forest = action - REVEAL;
        s->forest_deck ^= (uint64_t)1 << s->forest;
        s->phase = PLAYING;
        break;
    case PUTTING_OUT: {
        int seat = s->putter;
        bit = (uint64_t)1 << (action - PUT_OUT);
        s->hands[seat] ^= bit;
        s->put_out[seat] |= bit;
        s->forest_deck |= bit;
        if (__builtin_popcountll(s->put_out[seat]) == s->put_out_count) {
            s->putter++;
            if (s->putter == s->n) {
                /* The short game's left-over card is shuffled in with the put-out cards. */
                s->forest_deck |= s->undealt;
                s->undealt = 0;
                s->phase = REVEALING;
            }
        }
        break;
    }
    default: /* CHOOSING_LEAD */
        s->first_lead = s->lead = s->turn = action - FIRST_LEAD;
        s->phase = DEALING;
        break;
    }
    s->history[s->length] = (int16_t)action;
    s->actors[s->length] = (int8_t)actor;
    s->length++;
}

/* ------------------------------------------------------------------ Python verbs */
static PyObject *list_of_bits(uint64_t mask, int offset)
{
    PyObject *list = PyList_New(__builtin_popcountll(mask));
    if (list == NULL)
        return NULL;
    Py_ssize_t i = 0;
    while (mask) {
        int card = __builtin_ctzll(mask);
        mask &= mask - 1;
        PyObject *value = PyLong_FromLong(card + offset);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i++, value);
    }
    return list;
}

static PyObject *Engine_current_player(EngineObject *self, PyObject *unused)
{
    return PyLong_FromLong(current_player(self));
}

static PyObject *Engine_is_terminal(EngineObject *self, PyObject *unused)
{
    return PyBool_FromLong(self->phase == GAME_OVER);
}

static PyObject *Engine_legal_actions(EngineObject *self, PyObject *unused)
{
    switch (self->phase) {
    case PLAYING:
        return list_of_bits(playable(self->hands[self->turn], self->follow), PLAY);
    case PUTTING_OUT:
        return list_of_bits(self->hands[self->putter], PUT_OUT);
    case DEALING:
        return list_of_bits(self->undealt, DEAL);
    case REVEALING:
        return list_of_bits(self->forest_deck, REVEAL);
    case CHOOSING_LEAD: {
        uint64_t seats = ((uint64_t)1 << self->n) - 1;
        return list_of_bits(seats, FIRST_LEAD);
    }
    default:
        return PyList_New(0);
    }
}

static PyObject *Engine_chance_outcomes(EngineObject *self, PyObject *unused)
{
    uint64_t mask;
    int offset;
    switch (self->phase) {
    case DEALING: mask = self->undealt; offset = DEAL; break;
    case REVEALING: mask = self->forest_deck; offset = REVEAL; break;
    case CHOOSING_LEAD: mask = ((uint64_t)1 << self->n) - 1; offset = FIRST_LEAD; break;
    default: return PyList_New(0);
    }
    int count = __builtin_popcountll(mask);
    /* Every unseen card (every seat, for the first lead) is equally likely. */
    PyObject *probability = PyFloat_FromDouble(1.0 / (double)count);
    if (probability == NULL)
        return NULL;
    PyObject *list = PyList_New(count);
    if (list == NULL) {
        Py_DECREF(probability);
        return NULL;
    }
    Py_ssize_t i = 0;
    while (mask) {
        int card = __builtin_ctzll(mask);
        mask &= mask - 1;
        PyObject *outcome = PyLong_FromLong(card + offset);
        PyObject *pair = outcome ? PyTuple_New(2) : NULL;
        if (pair == NULL) {
            Py_XDECREF(outcome);
            Py_DECREF(probability);
            Py_DECREF(list);
            return NULL;
        }
        Py_INCREF(probability);
        PyTuple_SET_ITEM(pair, 0, outcome);
        PyTuple_SET_ITEM(pair, 1, probability);
        PyList_SET_ITEM(list, i++, pair);
    }
    Py_DECREF(probability);
    return list;
}

static PyObject *Engine_apply_action(EngineObject *self, PyObject *action)
{
    long value = -1;
    int overflow = 0;
    if (PyLong_CheckExact(action)) {
        value = PyLong_AsLongAndOverflow(action, &overflow);
        if (value == -1 && PyErr_Occurred())
            return NULL;
    }
    if (!PyLong_CheckExact(action) || overflow || !is_legal(self, value)) {
        /* The reference state finds the words for a refusal (and raises them); it returns
           the action only when it accepts it, e.g. an int subclass the fast path skipped. */
        PyObject *accepted = PyObject_CallMethod((PyObject *)self, "_refuse", "O", action);
        if (accepted == NULL)
            return NULL;
        value = PyLong_AsLongAndOverflow(accepted, &overflow);
        Py_DECREF(accepted);
        if (value == -1 && PyErr_Occurred())
            return NULL;
        if (overflow || !is_legal(self, value)) {
            PyErr_SetString(PyExc_SystemError,
                            "the compiled and reference Tighee engines disagree on a move");
            return NULL;
        }
    }
    if (self->length >= MAX_HISTORY) {
        PyErr_SetString(PyExc_SystemError, "compiled Tighee history is full");
        return NULL;
    }
    apply(self, (int)value);
    Py_RETURN_NONE;
}

static PyObject *Engine_returns(EngineObject *self, PyObject *unused)
{
    int n = self->n;
    double values[MAX_PLAYERS] = {0.0, 0.0, 0.0, 0.0};
    if (self->phase == GAME_OVER) {
        /* Highest total; a tie goes to the higher score of the last round, else is shared. */
        int best = self->totals[0];
        for (int seat = 1; seat < n; seat++)
            if (self->totals[seat] > best)
                best = self->totals[seat];
        int best_last = 0, first = 1;
        for (int seat = 0; seat < n; seat++)
            if (self->totals[seat] == best && (first || self->last_points[seat] > best_last)) {
                best_last = self->last_points[seat];
                first = 0;
            }
        int winners = 0;
        for (int seat = 0; seat < n; seat++)
            if (self->totals[seat] == best && self->last_points[seat] == best_last)
                winners++;
        double share = 1.0 / (double)winners;
        for (int seat = 0; seat < n; seat++)
            if (self->totals[seat] == best && self->last_points[seat] == best_last)
                values[seat] = share;
    }
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int seat = 0; seat < n; seat++) {
        PyObject *value = PyFloat_FromDouble(values[seat]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, seat, value);
    }
    return list;
}

static PyObject *Engine_scores(EngineObject *self, PyObject *unused)
{
    PyObject *list = PyList_New(self->n);
    if (list == NULL)
        return NULL;
    for (int seat = 0; seat < self->n; seat++) {
        PyObject *value = PyLong_FromLong(self->totals[seat]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, seat, value);
    }
    return list;
}

static PyObject *int_list(const void *values, int length, int is_history)
{
    PyObject *list = PyList_New(length);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < length; i++) {
        long v = is_history ? ((const int16_t *)values)[i] : ((const int8_t *)values)[i];
        PyObject *value = PyLong_FromLong(v);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

static PyObject *Engine_history(EngineObject *self, PyObject *unused)
{
    return int_list(self->history, self->length, 1);
}

static PyObject *Engine_actors(EngineObject *self, PyObject *unused)
{
    return int_list(self->actors, self->length, 0);
}

static PyObject *Engine_clone(EngineObject *self, PyObject *unused)
{
    PyTypeObject *type = Py_TYPE(self);
    EngineObject *twin = (EngineObject *)type->tp_alloc(type, 0);
    if (twin == NULL)
        return NULL;
    /* Everything after the object header, up to the used part of the history. */
    size_t head = offsetof(EngineObject, game);
    memcpy((char *)twin + head, (char *)self + head, offsetof(EngineObject, history) - head);
    memcpy(twin->history, self->history, sizeof(int16_t) * (size_t)self->length);
    memcpy(twin->actors, self->actors, sizeof(int8_t) * (size_t)self->length);
    Py_INCREF(twin->game);
    return (PyObject *)twin;
}

static PyObject *Engine_num_players(EngineObject *self, PyObject *unused)
{
    return PyLong_FromLong(self->n);
}

static int read_int(PyObject *game, const char *name, int *out)
{
    PyObject *value = PyObject_GetAttrString(game, name);
    if (value == NULL)
        return -1;
    long v = PyLong_AsLong(value);
    Py_DECREF(value);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = (int)v;
    return 0;
}

static PyObject *Engine_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"game", NULL};
    PyObject *game;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", keywords, &game))
        return NULL;
    int n, hand_size, put_out_count, random_first_lead;
    if (read_int(game, "num_players", &n) || read_int(game, "hand_size", &hand_size)
        || read_int(game, "put_out_count", &put_out_count))
        return NULL;
    if (n < 3 || n > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "compiled Tighee plays 3 or 4 players");
        return NULL;
    }
    PyObject *mask = PyObject_GetAttrString(game, "deck_mask");
    if (mask == NULL)
        return NULL;
    unsigned long long deck_mask = PyLong_AsUnsignedLongLong(mask);
    Py_DECREF(mask);
    if (PyErr_Occurred())
        return NULL;
    PyObject *options = PyObject_GetAttrString(game, "options");
    if (options == NULL)
        return NULL;
    PyObject *flag = PyMapping_GetItemString(options, "random_first_lead");
    Py_DECREF(options);
    if (flag == NULL)
        return NULL;
    random_first_lead = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    if (random_first_lead < 0)
        return NULL;

    EngineObject *self = (EngineObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(game);
    self->game = game;
    self->n = n;
    self->hand_size = hand_size;
    self->put_out_count = put_out_count;
    self->deck_mask = (uint64_t)deck_mask;
    self->phase = random_first_lead ? CHOOSING_LEAD : DEALING;
    self->round = 0;
    self->first_lead = 0;
    new_round_zones(self);
    return (PyObject *)self;
}

static void Engine_dealloc(EngineObject *self)
{
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_get_game(EngineObject *self, void *closure)
{
    Py_INCREF(self->game);
    return self->game;
}

static PyMethodDef Engine_methods[] = {
    {"current_player", (PyCFunction)Engine_current_player, METH_NOARGS,
     "A seat number, or CHANCE (-1), or TERMINAL (-4)."},
    {"is_terminal", (PyCFunction)Engine_is_terminal, METH_NOARGS, "Whether the game is over."},
    {"legal_actions", (PyCFunction)Engine_legal_actions, METH_NOARGS,
     "Sorted legal actions; at a chance node, the possible outcomes."},
    {"chance_outcomes", (PyCFunction)Engine_chance_outcomes, METH_NOARGS,
     "(outcome, probability) pairs at a chance node, empty elsewhere."},
    {"apply_action", (PyCFunction)Engine_apply_action, METH_O,
     "Play an action; an illegal one raises IllegalActionError and changes nothing."},
    {"returns", (PyCFunction)Engine_returns, METH_NOARGS, "Per seat: 1.0, 1/k on a tie, 0.0."},
    {"scores", (PyCFunction)Engine_scores, METH_NOARGS, "Each seat's total points."},
    {"history", (PyCFunction)Engine_history, METH_NOARGS, "Every action so far."},
    {"actors", (PyCFunction)Engine_actors, METH_NOARGS, "Who made each history entry."},
    {"clone", (PyCFunction)Engine_clone, METH_NOARGS, "An independent copy."},
    {"num_players", (PyCFunction)Engine_num_players, METH_NOARGS, "The number of seats."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"game", (getter)Engine_get_game, NULL, "The game these states belong to.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ladytiger.games._tighee_engine.TigheeEngine",
    .tp_doc = "The hot verbs of a Tighee state, compiled (tighee.py is the reference).",
    .tp_basicsize = sizeof(EngineObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = Engine_new,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ladytiger.games._tighee_engine",
    .m_doc = "Compiled Tighee state (opt-in; see ladytiger.games.tighee_compiled).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__tighee_engine(void)
{
    for (int colour = 0; colour < 5; colour++)
        COLOUR_MASKS[colour] = (((uint64_t)1 << STRIDE) - 1) << (STRIDE * colour);
    if (PyType_Ready(&EngineType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&engine_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(module, "TigheeEngine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
