/*
 * The compiled core of the Slide expert's play-outs: meeple.games.slide.bots.sim's
 * pure-Python play_out (the reference), step for step, in C.
 *
 * play_out(players, rounds, round, first, grids, pool, to_take, picks, seed)
 *     -> tuple[int, ...]
 *
 * Plays a determinized deal to its end and returns the final points per seat.
 * `first` is -1 for "not known yet" (the lowest reveal starts); `grids` holds
 * one sequence of 16 ints per seat (face-down negative, the hole 0); `picks`
 * a pending pick (cell) per seat or -1. Reveals are drawn with splitmix64
 * from `seed`, exactly as sim.reveal_draw does; takes are greedy: the
 * lowest visible score (face-down cells at 5.5), values ascending then the
 * sides left, right, top, bottom, ties keeping the first. Scores are doubled
 * so that 5.5 is the integer 11 and every comparison is exact.
 *
 * Optional: the package installs and plays without it (see setup.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SIZE 4
#define CELLS 16
#define MAX_PLAYERS 16
#define MAX_VALUE 10
#define HIDDEN_TWICE 11 /* ROLLOUT_HIDDEN = 5.5, doubled */
#define LEFT 0
#define RIGHT 1
#define TOP 2
#define BOTTOM 3

typedef struct {
    int players, rounds, round, first;
    int grids[MAX_PLAYERS][CELLS];
    int pool[MAX_VALUE + 1]; /* how many cards of each value; the order never matters */
    int to_take[MAX_PLAYERS];
    int n_take, head;
    int picks[MAX_PLAYERS];
    uint64_t state;
} World;

static int NEIGHBOURS[CELLS][4];
static int N_NEIGHBOURS[CELLS];
static int SOURCE[CELLS][4][CELLS]; /* SOURCE[hole][side][i]: where cell i comes from; CELLS: the new card */
static int ALLOWED[CELLS][4];

static int landing(int hole, int side) {
    int row = hole / SIZE, col = hole % SIZE;
    switch (side) {
    case LEFT: return row * SIZE;
    case RIGHT: return row * SIZE + SIZE - 1;
    case TOP: return col;
    default: return (SIZE - 1) * SIZE + col;
    }
}

static void init_tables(void) {
    for (int i = 0; i < CELLS; i++) {
        int r = i / SIZE, c = i % SIZE, n = 0;
        if (r > 0) NEIGHBOURS[i][n++] = i - SIZE;
        if (r < SIZE - 1) NEIGHBOURS[i][n++] = i + SIZE;
        if (c > 0) NEIGHBOURS[i][n++] = i - 1;
        if (c < SIZE - 1) NEIGHBOURS[i][n++] = i + 1;
        N_NEIGHBOURS[i] = n;
    }
    for (int hole = 0; hole < CELLS; hole++) {
        int row = hole / SIZE, col = hole % SIZE;
        for (int side = 0; side < 4; side++) {
            int *src = SOURCE[hole][side];
            for (int i = 0; i < CELLS; i++) src[i] = i;
            if (side == LEFT)
                for (int c = col; c > 0; c--) src[row * SIZE + c] = row * SIZE + c - 1;
            else if (side == RIGHT)
                for (int c = col; c < SIZE - 1; c++) src[row * SIZE + c] = row * SIZE + c + 1;
            else if (side == TOP)
                for (int r = row; r > 0; r--) src[r * SIZE + col] = (r - 1) * SIZE + col;
            else
                for (int r = row; r < SIZE - 1; r++) src[r * SIZE + col] = (r + 1) * SIZE + col;
            src[landing(hole, side)] = CELLS;
            ALLOWED[hole][side] = landing(hole, side) != hole;
        }
    }
}

static uint64_t next_draw(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* visible_score, doubled: face-up cards no equal neighbour cancels, face-down at 5.5. */
static int score_twice(const int *grid) {
    int total = 0;
    for (int i = 0; i < CELLS; i++) {
        int card = grid[i];
        if (card > 0) {
            int alone = 1;
            for (int k = 0; k < N_NEIGHBOURS[i]; k++)
                if (grid[NEIGHBOURS[i][k]] == card) {
                    alone = 0;
                    break;
                }
            if (alone) total += 2 * card;
        } else if (card < 0) {
            total += HIDDEN_TWICE;
        }
    }
    return total;
}

static int hole_of(const int *grid) {
    for (int i = 0; i < CELLS; i++)
        if (grid[i] == 0) return i;
    return -1;
}

static void slide(const int *grid, int hole, int side, int value, int *out) {
    const int *src = SOURCE[hole][side];
    for (int i = 0; i < CELLS; i++) out[i] = src[i] == CELLS ? value : grid[src[i]];
}

/* The next taker's greedy take (best_take with greedy_score); 0, or -1 with an error set. */
static int take_greedy(World *w) {
    int seat = w->to_take[w->head];
    int *grid = w->grids[seat];
    int hole = hole_of(grid);
    if (hole < 0) {
        PyErr_Format(PyExc_ValueError, "seat %d has no hole to slide a card into", seat);
        return -1;
    }
    int best = -1, best_value = 0, best_side = 0, trial[CELLS];
    for (int value = 1; value <= MAX_VALUE; value++) {
        if (!w->pool[value]) continue;
        for (int side = 0; side < 4; side++) {
            if (!ALLOWED[hole][side]) continue;
            slide(grid, hole, side, value, trial);
            int score = score_twice(trial);
            if (best < 0 || score < best) {
                best = score;
                best_value = value;
                best_side = side;
            }
        }
    }
    if (best < 0) {
        PyErr_SetString(PyExc_ValueError, "the pool is empty");
        return -1;
    }
    w->pool[best_value]--;
    slide(grid, hole, best_side, best_value, trial);
    memcpy(grid, trial, sizeof trial);
    w->head++;
    if (w->head == w->n_take) {
        w->head = w->n_take = 0;
        if (w->first < 0) {
            PyErr_SetString(PyExc_ValueError, "a round ended with no first player");
            return -1;
        }
        w->round++;
        w->first = (w->first + 1) % w->players;
    }
    return 0;
}

/* pick(): record the reveal; when every seat has picked, turn them up. 0, or -1 with an error. */
static int pick(World *w, int seat, int cell) {
    w->picks[seat] = cell;
    for (int s = 0; s < w->players; s++)
        if (w->picks[s] < 0) return 0;
    int revealed[MAX_PLAYERS];
    memset(w->pool, 0, sizeof w->pool); /* the pool becomes the revealed cards */
    for (int s = 0; s < w->players; s++) {
        int value = -w->grids[s][w->picks[s]];
        if (value < 1 || value > MAX_VALUE) {
            PyErr_Format(PyExc_ValueError, "seat %d picked a cell that is not face down", s);
            return -1;
        }
        revealed[s] = value;
        w->grids[s][w->picks[s]] = 0;
        w->pool[value]++;
    }
    if (w->first < 0) { /* lowest_reveal_starts: the lowest card, the earliest seat on ties */
        w->first = 0;
        for (int s = 1; s < w->players; s++)
            if (revealed[s] < revealed[w->first]) w->first = s;
    }
    for (int k = 0; k < w->players; k++) w->to_take[k] = (w->first + k) % w->players;
    w->n_take = w->players;
    w->head = 0;
    for (int s = 0; s < w->players; s++) w->picks[s] = -1;
    return 0;
}

/* The rest of the deal: greedy takes, random reveals. 0, or -1 with an error set. */
static int run(World *w) {
    for (;;) {
        if (w->head < w->n_take) {
            if (take_greedy(w) < 0) return -1;
            continue;
        }
        if (w->round > w->rounds) return 0;
        int moved = 0;
        for (int seat = 0; seat < w->players; seat++) {
            if (w->head < w->n_take) break;
            if (w->picks[seat] >= 0) continue;
            int down[CELLS], n = 0;
            for (int i = 0; i < CELLS; i++)
                if (w->grids[seat][i] < 0) down[n++] = i;
            if (n == 0) {
                PyErr_Format(PyExc_ValueError, "seat %d has no face-down card to reveal", seat);
                return -1;
            }
            if (pick(w, seat, down[next_draw(&w->state) % (uint64_t)n]) < 0) return -1;
            moved = 1;
        }
        if (!moved && w->head >= w->n_take) {
            PyErr_SetString(PyExc_ValueError, "every seat has picked but nothing was revealed");
            return -1;
        }
    }
}

/* final_tally's points: the cards no orthogonal neighbour of the same value cancels. */
static long final_points(const int *grid) {
    int values[CELLS];
    long total = 0;
    for (int i = 0; i < CELLS; i++) values[i] = grid[i] < 0 ? -grid[i] : grid[i];
    for (int i = 0; i < CELLS; i++) {
        int alone = 1;
        for (int k = 0; k < N_NEIGHBOURS[i]; k++)
            if (values[NEIGHBOURS[i][k]] == values[i]) {
                alone = 0;
                break;
            }
        if (alone) total += values[i];
    }
    return total;
}

/* Read a sequence of ints into out[0..n); `limit` caps its length. -1 with an error set. */
static Py_ssize_t read_ints(PyObject *obj, int *out, Py_ssize_t limit, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > limit) {
        PyErr_Format(PyExc_ValueError, "%s: too many items (%zd)", what, n);
        Py_DECREF(seq);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < -1000 || v > 1000) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return n;
}

static PyObject *play_out(PyObject *self, PyObject *args) {
    (void)self;
    World w;
    PyObject *grids, *pool, *to_take, *picks, *seed;
    memset(&w, 0, sizeof w);
    if (!PyArg_ParseTuple(args, "iiiiOOOOO", &w.players, &w.rounds, &w.round, &w.first, &grids,
                          &pool, &to_take, &picks, &seed))
        return NULL;
    if (w.players < 1 || w.players > MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "players must be 1..%d", MAX_PLAYERS);
        return NULL;
    }
    if (w.first >= w.players || w.first < -1) {
        PyErr_SetString(PyExc_ValueError, "first must be a seat or -1");
        return NULL;
    }
    w.state = PyLong_AsUnsignedLongLongMask(seed); /* the seed mod 2**64 */
    if (PyErr_Occurred()) return NULL;
    PyObject *rows = PySequence_Fast(grids, "grids must be a sequence");
    if (rows == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(rows) != w.players) {
        PyErr_SetString(PyExc_ValueError, "one grid per seat");
        Py_DECREF(rows);
        return NULL;
    }
    for (int s = 0; s < w.players; s++) {
        Py_ssize_t n = read_ints(PySequence_Fast_GET_ITEM(rows, s), w.grids[s], CELLS, "a grid");
        if (n != CELLS) {
            if (n >= 0) PyErr_SetString(PyExc_ValueError, "a grid has 16 cells");
            Py_DECREF(rows);
            return NULL;
        }
    }
    Py_DECREF(rows);
    int values[MAX_PLAYERS * 4];
    Py_ssize_t n_pool = read_ints(pool, values, MAX_PLAYERS * 4, "pool");
    if (n_pool < 0) return NULL;
    for (Py_ssize_t i = 0; i < n_pool; i++) {
        if (values[i] < 1 || values[i] > MAX_VALUE) {
            PyErr_SetString(PyExc_ValueError, "a pool card must be 1..10");
            return NULL;
        }
        w.pool[values[i]]++;
    }
    Py_ssize_t n_take = read_ints(to_take, w.to_take, MAX_PLAYERS, "to_take");
    if (n_take < 0) return NULL;
    w.n_take = (int)n_take;
    for (int k = 0; k < w.n_take; k++)
        if (w.to_take[k] < 0 || w.to_take[k] >= w.players) {
            PyErr_SetString(PyExc_ValueError, "to_take lists seats");
            return NULL;
        }
    Py_ssize_t n_picks = read_ints(picks, w.picks, MAX_PLAYERS, "picks");
    if (n_picks < 0) return NULL;
    if (n_picks != w.players) {
        PyErr_SetString(PyExc_ValueError, "one pick (or -1) per seat");
        return NULL;
    }
    for (int s = 0; s < w.players; s++)
        if (w.picks[s] < -1 || w.picks[s] >= CELLS) {
            PyErr_SetString(PyExc_ValueError, "a pick is a cell or -1");
            return NULL;
        }
    if (run(&w) < 0) return NULL;
    PyObject *points = PyTuple_New(w.players);
    if (points == NULL) return NULL;
    for (int s = 0; s < w.players; s++) {
        PyObject *p = PyLong_FromLong(final_points(w.grids[s]));
        if (p == NULL) {
            Py_DECREF(points);
            return NULL;
        }
        PyTuple_SET_ITEM(points, s, p);
    }
    return points;
}

static PyMethodDef methods[] = {
    {"play_out", play_out, METH_VARARGS,
     "play_out(players, rounds, round, first, grids, pool, to_take, picks, seed) -> final "
     "points per seat; first -1: not known yet; picks: a cell or -1 per seat."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_playout_c",
    "The compiled play-outs of the Slide expert bot (optional).", -1, methods,
};

PyMODINIT_FUNC PyInit__playout_c(void) {
    init_tables();
    return PyModule_Create(&module);
}
