/* A line protocol over Cake 1.89g's cake_getmove, so a match runner can play it (doska's own
   driver; Cake's source is compiled with it from the folder build.sh is given, never committed
   here). Squares are algebraic, a1 = White's bottom-left; Black starts on ranks 6-8 and moves
   first, as in doska's American.

     setup <32 squares b8,d8,f8,h8,a7,...,g1 (= 1..32) as w W b B .><w|b>  -> ok
     go <ms>       Cake thinks at most ms and plays  -> move <from> <to> [captured...] depth <d>
     play <from> <to> [captured...]   the opponent's move, matched by start, end and captured set
                                                     -> ok | illegal
     moves         Cake's legal moves in the position  -> moves <from>-<to>[x<captured>...],...
     score <depth> Cake's value of the position, searched to depth plies, for the side to move
                   (a man is about 100, a win near 1900; no legal move: -1900)  -> score <value>
                   depth <d>; the board stays as it was, and a `go` after it starts a new game
                   history. Forced moves are played first (Cake scores a position with one move
                   0) and the value is the side to move's here.
     quit

   `go` runs Cake's own time control with maxtime = ms: it starts no new iteration after 57% of
   it, and (the "exact" flag, info & 2) aborts the search at ms; a timer also raises Cake's
   playnow flag at ms, so the stop does not wait for its clock check every 65536 nodes. An
   aborted iteration is thrown away (Cake plays the last complete one), and the depth answered is
   that of the last complete iteration. Cake keeps the positions of the game since `setup` for its
   repetition check: each call of cake_getmove adds the position it is given and the one after
   its move.

   Cake prints to standard output as it works, so the answers go to a copy of the original
   standard output, and standard output itself to /dev/null; Cake's own line on each search
   (depth, time, value, nodes, pv) goes to standard error. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "switches.h"
#include "structs.h"
#include "consts.h"
#include "cakepp.h"
#include "move_gen.h"

extern int usethebook;  /* cakepp.c */
int hashclear(void);    /* cakepp.c */

static FILE *out;
static POSITION board;
static SEARCHINFO si;
static int playnow;
static int reset_history = 1;

/* Cake's bit b: row b / 4 from Black's back rank (rank 8), with bit 4y + 3 on the left.
   bit -> square number 1..32 (doska's and the PDN's: 1 = b8) -> algebraic. */
static int bit_to_number(int b) { return 4 * (b / 4) + (3 - b % 4) + 1; }
static int number_to_bit(int n) { return 4 * ((n - 1) / 4) + 3 - (n - 1) % 4; }

static void bit_to_alg(int b, char s[3]) {
  int n = bit_to_number(b), r = (n - 1) / 4, k = (n - 1) % 4;
  s[0] = (char)('a' + 2 * k + (r % 2 == 0 ? 1 : 0));
  s[1] = (char)('8' - r);
  s[2] = 0;
}

static int alg_to_bit(const char *s) {
  int file = s[0] - 'a', rank = s[1] - '0';
  if (file < 0 || file > 7 || rank < 1 || rank > 8 || s[2] || (file + rank) % 2 == 0) return -1;
  int r = 8 - rank;
  return number_to_bit(4 * r + file / 2 + 1);
}

static int lowest(int32 x) { return x ? __builtin_ctz(x) : -1; }

/* A move as Cake keeps it (the squares it toggles) -> start, end and captured squares. */
typedef struct {
  int from, to;
  int32 captured;
} SQUARES;

static SQUARES squares_of(const POSITION *p, const MOVE *m) {
  SQUARES q;
  int32 mine = p->color == BLACK ? (p->bm | p->bk) : (p->wm | p->wk);
  int32 moved = p->color == BLACK ? (m->bm | m->bk) : (m->wm | m->wk);
  q.captured = p->color == BLACK ? (m->wm | m->wk) : (m->bm | m->bk);
  q.from = lowest(moved & mine);
  q.to = lowest(moved & ~mine);
  if (q.from < 0) {
    /* A king that captured round a circle back to its square toggles none of its own bits:
       it is the king next to two of the captured pieces. */
    int32 kings = p->color == BLACK ? p->bk : p->wk;
    for (int b = 0; b < 32 && q.from < 0; b++) {
      if (!(kings >> b & 1)) continue;
      int near = 0;
      for (int c = 0; c < 32; c++) {
        char sb[3], sc[3];
        if (!(q.captured >> c & 1)) continue;
        bit_to_alg(b, sb);
        bit_to_alg(c, sc);
        if (abs(sb[0] - sc[0]) == 1 && abs(sb[1] - sc[1]) == 1) near++;
      }
      if (near >= 2) q.from = b;
    }
    if (q.from < 0) q.from = lowest(kings);
    q.to = q.from;
  }
  return q;
}

static void say_squares(FILE *f, SQUARES q, const char *sep_to, const char *sep_cap) {
  char s[3];
  bit_to_alg(q.from, s);
  fprintf(f, "%s%s", s, sep_to);
  bit_to_alg(q.to, s);
  fprintf(f, "%s", s);
  for (int c = 0; c < 32; c++)
    if (q.captured >> c & 1) {
      bit_to_alg(c, s);
      fprintf(f, "%s%s", sep_cap, s);
    }
}

static int setup(const char *p) {
  if (strlen(p) != 33 || (p[32] != 'w' && p[32] != 'b')) return 0;
  POSITION q = {0, 0, 0, 0, p[32] == 'w' ? WHITE : BLACK};
  for (int n = 1; n <= 32; n++) {
    int32 bit = 1u << number_to_bit(n);
    switch (p[n - 1]) {
      case 'w': q.wm |= bit; break;
      case 'W': q.wk |= bit; break;
      case 'b': q.bm |= bit; break;
      case 'B': q.bk |= bit; break;
      case '.': break;
      default: return 0;
    }
  }
  board = q;
  reset_history = 1;
  return 1;
}

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  int ms;
} TIMER;

static void *timer_main(void *arg) {
  TIMER *t = arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += t->ms / 1000;
  until.tv_nsec += (long)(t->ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&t->mu);
  int rc = 0;
  while (!t->done && rc == 0) rc = pthread_cond_timedwait(&t->cv, &t->mu, &until);
  if (!t->done) playnow = 1;
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

static void go(int ms) {
  MOVE ml[MAXMOVES];
  char str[1024] = "";
  if (getorderedmovelist(&board, ml) == 0) {
    fprintf(out, "error no legal move\n");
    return;
  }
  POSITION before = board, after = board;
  TIMER t = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, ms};
  pthread_t th;
  playnow = 0;
  pthread_create(&th, NULL, timer_main, &t);
  /* how 0: time-based; info 2: abort at maxtime; info 1: a new game's history. */
  cake_getmove(&si, &after, TIME_BASED, ms / 1000.0, 0, 0, str, &playnow, 0, 2 | reset_history);
  pthread_mutex_lock(&t.mu);
  t.done = 1;
  pthread_cond_signal(&t.cv);
  pthread_mutex_unlock(&t.mu);
  pthread_join(th, NULL);
  reset_history = 0;
  fprintf(stderr, "cake: %s\n", str);  /* its own line on the search, for whoever looks */
  int depth = si.depth;
  if (si.aborted)  /* iterations go 1, 3, 5, ... and at most one even step at the end */
    depth = depth % 2 == 0 ? depth - 1 : depth - 2;
  if (depth < 1) depth = 1;
  MOVE m = {before.bm ^ after.bm, before.bk ^ after.bk, before.wm ^ after.wm, before.wk ^ after.wk};
  board = after;
  fprintf(out, "move ");
  say_squares(out, squares_of(&before, &m), " ", " ");
  fprintf(out, " depth %d\n", depth);
}

static void score(int depth) {
  MOVE ml[MAXMOVES];
  char str[1024] = "";
  POSITION p = board;
  int sign = 1, n;
  for (int forced = 0; (n = getorderedmovelist(&p, ml)) == 1 && forced < 16; forced++) {
    togglemove((&p), ml[0]);
    sign = -sign;
  }
  if (n == 0) {
    fprintf(out, "score %d depth 0\n", -sign * MATE);  /* the side to move at p has lost */
    return;
  }
  playnow = 0;
  /* how 1: depth-based; info 1: a position of its own (no game history). */
  cake_getmove(&si, &p, DEPTH_BASED, 0.0, depth, 0, str, &playnow, 0, 1);
  reset_history = 1;  /* the next `go` starts its own history, without this search's position */
  fprintf(out, "score %d depth %d\n", sign * si.value, si.depth);
}

static int play(int from, int to, int32 captured) {
  MOVE ml[MAXMOVES];
  int n = getorderedmovelist(&board, ml);
  for (int i = 0; i < n; i++) {
    SQUARES q = squares_of(&board, &ml[i]);
    if (q.from == from && q.to == to && q.captured == captured) {
      POSITION *p = &board;
      togglemove(p, ml[i]);
      return 1;
    }
  }
  return 0;
}

static void moves(void) {
  MOVE ml[MAXMOVES];
  int n = getorderedmovelist(&board, ml);
  fprintf(out, "moves");
  for (int i = 0; i < n; i++) {
    fprintf(out, i ? "," : " ");
    say_squares(out, squares_of(&board, &ml[i]), "-", "x");
  }
  fprintf(out, "\n");
}

int main(void) {
  char line[1024], cmd[64], init_out[1024] = "";
  out = fdopen(dup(1), "w");
  setvbuf(out, NULL, _IOLBF, 0);
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0) dup2(devnull, 1);

  usethebook = 0;  /* no opening book (build.sh compiles its loading out too) */
  initcake(init_out);
  hashclear();  /* touches its 128 MB hash table now, not in the first moves' time */
  si.repcheck = malloc((MAXDEPTH + HISTORYOFFSET) * sizeof(REPETITION));
  setup("bbbbbbbbbbbb........wwwwwwwwwwwwb");

  while (fgets(line, sizeof line, stdin)) {
    char *a[24];  /* the command's words after its name: a capture takes at most 12 pieces */
    int k = 0;
    for (char *w = strtok(line, " \t\r\n"); w && k < 24; w = strtok(NULL, " \t\r\n")) {
      if (k == 0) snprintf(cmd, sizeof cmd, "%s", w);
      else a[k - 1] = w;
      k++;
    }
    if (k < 1) continue;
    if (!strcmp(cmd, "setup")) {
      fprintf(out, k == 2 && setup(a[0]) ? "ok\n" : "error setup takes 32 squares and a side\n");
    } else if (!strcmp(cmd, "go")) {
      int ms = k >= 2 ? atoi(a[0]) : 300;
      go(ms > 0 ? ms : 1);
    } else if (!strcmp(cmd, "play")) {
      int from = k >= 3 ? alg_to_bit(a[0]) : -1, to = k >= 3 ? alg_to_bit(a[1]) : -1;
      int32 captured = 0;
      int ok = from >= 0 && to >= 0;
      for (int i = 2; i < k - 1 && ok; i++) {
        int c = alg_to_bit(a[i]);
        if (c < 0) ok = 0;
        else captured |= 1u << c;
      }
      fprintf(out, ok && play(from, to, captured) ? "ok\n" : "illegal\n");
    } else if (!strcmp(cmd, "moves")) {
      moves();
    } else if (!strcmp(cmd, "score")) {
      int d = k >= 2 ? atoi(a[0]) : 0;
      if (d < 1 || d > 60) fprintf(out, "error score takes a depth of 1 to 60 plies\n");
      else score(d);
    } else if (!strcmp(cmd, "quit")) {
      break;
    } else {
      fprintf(out, "error unknown command %s\n", cmd);
    }
  }
  return 0;
}
