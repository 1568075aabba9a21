/*
 * The compiled core of the Summy move generator: the depth-first search of
 * meeple.games.summy.movegen.solve._search, line for line, in C.
 *
 * search(pattern, hand, min_end) -> tuple[tuple[int, str], ...] | None
 *
 * Every true equation that fills a prefix of `pattern` (a stretch: "?" for an
 * empty cell) from `hand` (sorted tiles) and ends at `min_end` or on (a
 * negative `min_end`: at the first old tile or on), as (end, filling), sorted. None when the search would leave exact 128-bit
 * arithmetic (a stretch too long, a value too big): the caller then runs the
 * pure-Python search, which is the reference. The pruning is the Python
 * search's; where one of its bounds would overflow, that bound is skipped
 * (pruning less never changes the result).
 *
 * Optional: the package installs and plays without it (see setup.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef __int128 i128;

#define HOLE '?'
#define MAX_SIZE 36 /* longer stretches go to the Python search */
#define HAND_SIZE 8
#define NEVER (1 << 10)
#define NEW_TERM 0
#define MUL 1
#define DIV 2

static i128 POW10[39];

typedef struct {
    const char *pattern;
    int size, min_end, max_tiles;
    int counts[128];
    int loose_digits;
    int room[MAX_SIZE + 2];
    int limit_len[MAX_SIZE + 2]; /* the longest right side from each cell: 10^len bounds it */
    char minus_ahead[MAX_SIZE + 2], divide_ahead[MAX_SIZE + 2], times_ahead[MAX_SIZE + 2];
    char zero_ahead[MAX_SIZE + 2], plus_ahead[MAX_SIZE + 2], operator_ahead[MAX_SIZE + 2];
    int digits_ahead[MAX_SIZE + 2];
    char digit_tiles[10];
    int n_digit_tiles;
    char op_tiles[4];
    int n_op_tiles;
    char chosen[MAX_SIZE + 2];
    int n_chosen;
    PyObject *found;
    int overflow; /* exact arithmetic left 128 bits: give up, the caller falls back */
    int error;    /* a Python error is set */
} Search;

/* Overflow-checked arithmetic: `*bad` is set on overflow (the result is then meaningless). */
static inline i128 mul(i128 a, i128 b, int *bad) {
    i128 r;
    if (__builtin_mul_overflow(a, b, &r)) *bad = 1;
    return r;
}
static inline i128 add(i128 a, i128 b, int *bad) {
    i128 r;
    if (__builtin_add_overflow(a, b, &r)) *bad = 1;
    return r;
}
static inline i128 sub(i128 a, i128 b, int *bad) {
    i128 r;
    if (__builtin_sub_overflow(a, b, &r)) *bad = 1;
    return r;
}

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

static void extend(Search *s, int i, i128 num, int lead0, i128 sn, i128 sd, i128 tn, i128 td,
                   int mulop, int sign, int has_op);

static void close_at(Search *s, int i, i128 value) {
    /* Record the equation whose left side is pattern[:i] and worth `value`. */
    char text[48];
    int len = 0;
    if (value == 0) {
        text[len++] = '0';
    } else {
        char rev[48];
        int n = 0;
        while (value > 0) {
            rev[n++] = (char)('0' + (int)(value % 10));
            value /= 10;
        }
        while (n) text[len++] = rev[--n];
    }
    int end = i + len;
    const char *p = s->pattern;
    if (end >= s->size || end < s->min_end || (end + 1 < s->size && p[end + 1] != HOLE)) return;
    int placed_equals = p[i] == HOLE;
    if (placed_equals) s->counts['=']--;
    char tail[48];
    int n_tail = 0, ok = 1;
    for (int k = 0; k < len; k++) {
        char cell = p[i + 1 + k], ch = text[k];
        if (cell == HOLE) {
            if (s->counts[(int)ch] == 0) {
                ok = 0;
                break;
            }
            s->counts[(int)ch]--;
            tail[n_tail++] = ch;
        } else if (cell != ch) {
            ok = 0;
            break;
        }
    }
    for (int k = 0; k < n_tail; k++) s->counts[(int)tail[k]]++;
    if (placed_equals) s->counts['=']++;
    int placed = s->n_chosen + placed_equals + n_tail;
    if (!ok || placed <= 0 || placed > s->max_tiles) return;
    char filling[64];
    memcpy(filling, s->chosen, (size_t)s->n_chosen);
    int n = s->n_chosen;
    if (placed_equals) filling[n++] = '=';
    memcpy(filling + n, tail, (size_t)n_tail);
    n += n_tail;
    PyObject *item = Py_BuildValue("(is#)", end, filling, (Py_ssize_t)n);
    if (item == NULL || PyList_Append(s->found, item) < 0) s->error = 1;
    Py_XDECREF(item);
}

static void read_digit(Search *s, int i, int value, i128 num, int lead0, i128 sn, i128 sd, i128 tn,
                  i128 td, int mulop, int sign, int has_op) {
    /* Read the digit `value` on cell i; close the left side here if it can end. */
    int bad = 0;
    if (num < 0) {
        num = value;
        lead0 = value == 0;
    } else if (lead0) {
        return;
    } else {
        num = add(mul(num, 10, &bad), value, &bad);
        if (bad) {
            s->overflow = 1;
            return;
        }
    }
    int after = i + 1;
    int *c = s->counts;
    int no_shrink = mulop != DIV && !((c['x'] || s->times_ahead[after]) &&
                                      (c['0'] || s->zero_ahead[after]));
    int digits = s->loose_digits + s->digits_ahead[after];
    if (digits <= 36) { /* else no bound: 10^digits would not fit */
        i128 most = POW10[digits];
        bad = 0;
        if (sign > 0) {
            /* A lower bound of the final value against the most the right side can hold. */
            i128 low_n = sn, low_d = sd;
            int pruned = 0;
            if (no_shrink) {
                i128 term_n, term_d;
                if (mulop == NEW_TERM) {
                    term_n = num;
                    term_d = 1;
                } else {
                    term_n = mul(tn, num, &bad);
                    term_d = td;
                }
                if (c[':'] || s->divide_ahead[after]) {
                    if (sn >= 0) {
                        i128 lhs = add(mul(sn, term_d, &bad), mul(term_n, sd, &bad), &bad);
                        i128 rhs = mul(mul(most, sd, &bad), term_d, &bad);
                        if (!bad && lhs >= rhs) pruned = 1;
                    }
                    term_d = mul(term_d, most, &bad);
                }
                low_n = add(mul(sn, term_d, &bad), mul(term_n, sd, &bad), &bad);
                low_d = mul(sd, term_d, &bad);
            }
            if (pruned) return;
            int limit_len = s->limit_len[after];
            i128 limit = limit_len <= 37 ? POW10[limit_len] : most;
            i128 bound = limit < most ? limit : most;
            if (digits > 1 && (c['-'] || s->minus_ahead[after])) {
                i128 share = most / 10;
                i128 other = (limit < share ? limit : share) + share;
                if (other > bound) bound = other;
            }
            if (!bad && limit_len <= 37) {
                i128 rhs = mul(bound, low_d, &bad);
                if (!bad && low_n >= rhs) return;
            }
        } else if (no_shrink) {
            /* A subtracted term that only grows: the value must not end below 0. */
            i128 term_n, term_d;
            if (mulop == NEW_TERM) {
                term_n = num;
                term_d = 1;
            } else {
                term_n = mul(tn, num, &bad);
                term_d = td;
            }
            if (c[':'] || s->divide_ahead[after]) term_d = mul(term_d, most, &bad);
            i128 added = (c['+'] || s->plus_ahead[after]) ? most : 0;
            i128 total = add(sub(mul(sn, term_d, &bad), mul(term_n, sd, &bad), &bad),
                             mul(mul(added, sd, &bad), term_d, &bad), &bad);
            if (!bad && total < 0) return;
        }
    }
    if (after == s->size) return;
    const char *p = s->pattern;
    if (has_op && (p[after] == '=' || (p[after] == HOLE && c['=']))) {
        i128 term_n, term_d;
        bad = 0;
        if (mulop == NEW_TERM) {
            term_n = num;
            term_d = 1;
        } else if (mulop == MUL) {
            term_n = mul(tn, num, &bad);
            term_d = td;
        } else {
            term_n = tn;
            term_d = mul(td, num, &bad);
        }
        if (term_d) {
            i128 total_n = add(mul(sn, term_d, &bad), mul(mul(sign, term_n, &bad), sd, &bad), &bad);
            i128 total_d = mul(sd, term_d, &bad);
            if (bad) {
                s->overflow = 1;
                return;
            }
            if (total_n >= 0 && total_n % total_d == 0) {
                close_at(s, after, total_n / total_d);
                if (s->error) return;
            }
        }
    }
    if (mulop == DIV && tn > 0 && sn % sd == 0 &&
        !(s->operator_ahead[after] || c['+'] || c['-']) && !(c['x'] || c[':'])) {
        /* The last term is a quotient and only digits can follow: once it is below 1,
         * a longer divisor leaves a fraction strictly between 0 and 1: never whole. */
        bad = 0;
        i128 top = mul(mul(10, td, &bad), num, &bad);
        if (!bad && tn < top) return;
    }
    extend(s, after, num, lead0, sn, sd, tn, td, mulop, sign, has_op);
}

static void operator_at(Search *s, int i, char tile, i128 num, i128 sn, i128 sd, i128 tn,
                        i128 td, int mulop, int sign) {
    /* Read the operator `tile` on cell i, which ends the number `num`. */
    int bad = 0;
    if (mulop == NEW_TERM) {
        tn = num;
        td = 1;
    } else if (mulop == MUL) {
        tn = mul(tn, num, &bad);
    } else {
        td = mul(td, num, &bad);
    }
    if (bad) {
        s->overflow = 1;
        return;
    }
    if (!td) return;
    if (tile == 'x') {
        extend(s, i + 1, -1, 0, sn, sd, tn, td, MUL, sign, 1);
    } else if (tile == ':') {
        extend(s, i + 1, -1, 0, sn, sd, tn, td, DIV, sign, 1);
    } else {
        i128 n = add(mul(sn, td, &bad), mul(mul(sign, tn, &bad), sd, &bad), &bad);
        i128 d = mul(sd, td, &bad);
        if (bad) {
            s->overflow = 1;
            return;
        }
        extend(s, i + 1, -1, 0, n, d, 0, 1, NEW_TERM, tile == '+' ? 1 : -1, 1);
    }
}

static void extend(Search *s, int i, i128 num, int lead0, i128 sn, i128 sd, i128 tn, i128 td,
                   int mulop, int sign, int has_op) {
    /* Fill cell i; `num` is the number being read (-1: none yet). */
    if (s->overflow || s->error) return;
    if (s->n_chosen > s->room[i]) return;
    char cell = s->pattern[i];
    int last = i + 1 == s->size;
    if (cell != HOLE) {
        if (is_digit(cell))
            read_digit(s, i, cell - '0', num, lead0, sn, sd, tn, td, mulop, sign, has_op);
        else if (cell != '=' && num >= 0 && !last)
            operator_at(s, i, cell, num, sn, sd, tn, td, mulop, sign);
        return;
    }
    if (s->n_chosen >= s->room[i + 1]) return; /* the "=" would come too late for the tiles */
    int *c = s->counts;
    if (num < 0 || !lead0) {
        for (int k = 0; k < s->n_digit_tiles; k++) {
            char tile = s->digit_tiles[k];
            if (!c[(int)tile]) continue;
            c[(int)tile]--;
            s->loose_digits--;
            s->chosen[s->n_chosen++] = tile;
            read_digit(s, i, tile - '0', num, lead0, sn, sd, tn, td, mulop, sign, has_op);
            s->n_chosen--;
            s->loose_digits++;
            c[(int)tile]++;
            if (s->overflow || s->error) return;
        }
    }
    if (num >= 0 && !last) {
        for (int k = 0; k < s->n_op_tiles; k++) {
            char tile = s->op_tiles[k];
            if (!c[(int)tile]) continue;
            c[(int)tile]--;
            s->chosen[s->n_chosen++] = tile;
            operator_at(s, i, tile, num, sn, sd, tn, td, mulop, sign);
            s->n_chosen--;
            c[(int)tile]++;
            if (s->overflow || s->error) return;
        }
    }
}

static void tiles_needed(const char *p, int size, int first_old, int hand_has_equals, int *need,
                         int *need_without_equals) {
    /* The fewest hand tiles that finish an equation from each cell (see the Python). */
    int right_holes[MAX_SIZE + 2], placed_equals[MAX_SIZE + 2];
    for (int j = 0; j < size; j++) {
        right_holes[j] = NEVER;
        placed_equals[j] = 0;
        char cell = p[j];
        if (cell != '=' && !(cell == HOLE && hand_has_equals)) continue;
        int holes = 0;
        for (int end = j + 1; end < size; end++) {
            if (p[end] == HOLE)
                holes++;
            else if (!is_digit(p[end]))
                break;
            if (end >= first_old && (end + 1 == size || p[end + 1] == HOLE)) {
                right_holes[j] = holes;
                placed_equals[j] = cell == HOLE;
                break;
            }
        }
    }
    need[size] = NEVER;
    need_without_equals[size] = NEVER;
    for (int i = size - 1; i >= 0; i--) {
        char cell = p[i];
        int here = right_holes[i] + placed_equals[i];
        if (cell == '=') {
            need[i] = here;
            need_without_equals[i] = right_holes[i];
        } else {
            int hole = cell == HOLE;
            int a = need[i + 1] + hole, b = need_without_equals[i + 1] + hole;
            need[i] = here < a ? here : a;
            need_without_equals[i] = right_holes[i] < b ? right_holes[i] : b;
        }
    }
}

static void longest_right_sides(const char *p, int size, int hand_has_equals, int *longest) {
    /* For each cell: the longest right side of an equation with its "=" there or after. */
    longest[size] = 0;
    for (int j = size - 1; j >= 0; j--) {
        longest[j] = longest[j + 1];
        char cell = p[j];
        if (cell == '=' || (cell == HOLE && hand_has_equals)) {
            int length = 0;
            while (j + length + 1 < size &&
                   (p[j + length + 1] == HOLE || is_digit(p[j + length + 1])))
                length++;
            if (length > longest[j]) longest[j] = length;
        }
    }
}

static int valid_tile(char c) {
    return c == HOLE || is_digit(c) || c == '+' || c == '-' || c == 'x' || c == ':' || c == '=';
}

static PyObject *search(PyObject *self, PyObject *args) {
    const char *pattern, *hand;
    Py_ssize_t size, hand_len;
    int min_end;
    (void)self;
    if (!PyArg_ParseTuple(args, "s#s#i", &pattern, &size, &hand, &hand_len, &min_end))
        return NULL;
    if (size > MAX_SIZE || hand_len > 64) Py_RETURN_NONE;
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    s->pattern = pattern;
    s->size = (int)size;
    s->min_end = min_end;
    for (Py_ssize_t k = 0; k < size; k++)
        if (!valid_tile(pattern[k])) {
            PyMem_Free(s);
            PyErr_SetString(PyExc_ValueError, "a pattern holds ?, digits, + - x : and =");
            return NULL;
        }
    for (Py_ssize_t k = 0; k < hand_len; k++) {
        if (!valid_tile(hand[k]) || hand[k] == HOLE) {
            PyMem_Free(s);
            PyErr_SetString(PyExc_ValueError, "a hand holds digits, + - x : and =");
            return NULL;
        }
        s->counts[(int)hand[k]]++;
    }
    PyObject *found = PyList_New(0);
    if (found == NULL) {
        PyMem_Free(s);
        return NULL;
    }
    s->found = found;
    int first_old = 0;
    while (first_old < size && pattern[first_old] == HOLE) first_old++;
    if (min_end < 0) s->min_end = min_end = first_old;
    if (first_old == size || size < 5 || hand_len == 0) goto done; /* no run can be legal */
    int has_equals_tile = memchr(pattern, '=', (size_t)size) != NULL;
    if (!has_equals_tile && !s->counts['=']) goto done;
    int any_operator = s->counts['+'] || s->counts['-'] || s->counts['x'] || s->counts[':'];
    for (Py_ssize_t k = 0; k < size && !any_operator; k++)
        any_operator = pattern[k] == '+' || pattern[k] == '-' || pattern[k] == 'x' ||
                       pattern[k] == ':';
    if (!any_operator) goto done; /* a left side needs an operator */
    s->max_tiles = hand_len < HAND_SIZE ? (int)hand_len : HAND_SIZE;
    int hand_has_equals = s->counts['='] > 0;
    int need[MAX_SIZE + 2], need_without_equals[MAX_SIZE + 2];
    tiles_needed(pattern, s->size, min_end, hand_has_equals, need, need_without_equals);
    int loose = (int)hand_len - s->counts['='];
    longest_right_sides(pattern, s->size, hand_has_equals, s->limit_len);
    for (int i = s->size; i >= 0; i--) {
        if (i == s->size) {
            s->digits_ahead[i] = 0;
            continue;
        }
        char cell = pattern[i];
        s->minus_ahead[i] = s->minus_ahead[i + 1] || cell == '-';
        s->divide_ahead[i] = s->divide_ahead[i + 1] || cell == ':';
        s->times_ahead[i] = s->times_ahead[i + 1] || cell == 'x';
        s->zero_ahead[i] = s->zero_ahead[i + 1] || cell == '0';
        s->plus_ahead[i] = s->plus_ahead[i + 1] || cell == '+';
        s->operator_ahead[i] =
            s->operator_ahead[i + 1] || cell == '+' || cell == '-' || cell == 'x' || cell == ':';
        s->digits_ahead[i] = s->digits_ahead[i + 1] + is_digit(cell);
    }
    for (char d = '0'; d <= '9'; d++) {
        s->loose_digits += s->counts[(int)d];
        if (s->counts[(int)d]) s->digit_tiles[s->n_digit_tiles++] = d;
    }
    static const char ops[] = "+-:x"; /* code-point order, as the Python sorts them */
    for (int k = 0; k < 4; k++)
        if (s->counts[(int)ops[k]]) s->op_tiles[s->n_op_tiles++] = ops[k];
    if (need[0] > s->max_tiles) goto done;
    for (int i = 0; i <= s->size; i++) {
        int a = s->max_tiles - need[i], b = loose - need_without_equals[i];
        s->room[i] = a < b ? a : b;
    }
    extend(s, 0, -1, 0, 0, 1, 0, 1, NEW_TERM, 1, 0);
    if (s->error) {
        Py_DECREF(found);
        PyMem_Free(s);
        return NULL;
    }
    if (s->overflow) {
        Py_DECREF(found);
        PyMem_Free(s);
        Py_RETURN_NONE;
    }
    if (PyList_Sort(found) < 0) {
        Py_DECREF(found);
        PyMem_Free(s);
        return NULL;
    }
done:
    PyMem_Free(s);
    PyObject *sorted_found = PyList_AsTuple(found);
    Py_DECREF(found);
    return sorted_found;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(pattern, hand, min_end) -> tuple of (end, filling), sorted; min_end < 0: from "
     "the first old tile; None: use the Python search (exact arithmetic would leave 128 "
     "bits)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_movegen_c",
    "The compiled depth-first search of the Summy move generator (optional).", -1, methods,
};

PyMODINIT_FUNC PyInit__movegen_c(void) {
    POW10[0] = 1;
    for (int k = 1; k < 39; k++) POW10[k] = POW10[k - 1] * 10;
    return PyModule_Create(&module);
}
