// A line protocol over KestoG 1.4's exported EI_* functions, so a match runner can play it
// (doska's own driver; KestoG's source is compiled into it from the folder build.sh is given,
// never committed here). Squares are algebraic, a1 = White's bottom-left.
//
//   setup <32 squares b8,d8,...,g1 as w W b B .><w|b>  -> ok
//   go <ms>       KestoG thinks at most ms and plays  -> move <from> <to> [captured...] depth <d>
//   play <from> <to> [captured...]   the opponent's move, matched by start, end and captured set
//                                                       -> ok | illegal
//   quit
// The shim first: the source names __stdcall before it includes <windows.h>.
#include "windows.h"
#include "KestoG_1_4.cpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>
#include <sstream>
#include <string>
#include <vector>

static int last_depth = 0;

static void __stdcall on_info(int, int depth, int, char *, char *) {
  if (depth > 0) last_depth = depth;
}

// A move as KestoG writes it ("a3:b4:d6:e7": start, the captured pieces, end) -> squares.
static std::vector<std::string> split_move(const char *s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char *p = s; *p; ++p) {
    if (*p == ':') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += *p;
      if (cur.size() == 2 && p[1] != ':' && p[1] != 0) {
        out.push_back(cur);  // "a3b4": a plain move without separator
        cur.clear();
      }
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

static std::string said(const std::vector<std::string> &sq) {
  std::string out = sq.front() + " " + sq.back();
  for (size_t i = 1; i + 1 < sq.size(); ++i) out += " " + sq[i];
  return out;
}

int main() {
  EI_Initialization(on_info, 64);
  EI_SetTimeControl(0, 0);
  EI_NewGame();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "setup") {
      std::string p;
      in >> p;
      if (p.size() != 33) {
        std::cout << "error setup takes 33 characters" << std::endl;
        continue;
      }
      EI_SetupBoard(const_cast<char *>(p.c_str()));
      std::cout << "ok" << std::endl;
    } else if (cmd == "go") {
      int ms = 300;
      in >> ms;
      // EI_Think gives itself a twentieth of the time left; its own time management may go
      // past that (up to twice), so a timer stops it at ms as EI_Stop would: the same hard
      // limit as the other side's.
      EI_SetTime(ms * 20, ms * 20);
      last_depth = 0;
      std::mutex mu;
      std::condition_variable cv;
      bool done = false;
      std::thread timer([&] {
        std::unique_lock<std::mutex> lock(mu);
        if (!cv.wait_for(lock, std::chrono::milliseconds(ms), [&] { return done; })) EI_Stop();
      });
      char *m = EI_Think();
      {
        std::lock_guard<std::mutex> lock(mu);
        done = true;
      }
      cv.notify_one();
      timer.join();
      std::cout << "move " << said(split_move(m)) << " depth " << last_depth << std::endl;
    } else if (cmd == "play") {
      std::string from, to, c;
      in >> from >> to;
      std::vector<std::string> caps;
      while (in >> c) caps.push_back(c);
      std::sort(caps.begin(), caps.end());
      move2 ml[MAXMOVES];
      init(Board);
      int n = Gen_Captures(Board, ml, Color);
      if (!n) n = Gen_Moves(Board, ml, Color);
      bool done = false;
      for (int i = 0; i < n && !done; i++) {
        char s[128];
        MoveToStr(ml[i], s);
        std::vector<std::string> sq = split_move(s);
        std::vector<std::string> mc(sq.begin() + 1, sq.end() - 1);
        std::sort(mc.begin(), mc.end());
        if (sq.front() == from && sq.back() == to && mc == caps) {
          domove2(Board, &ml[i], Color);
          Color = Color == WHITE ? BLACK : WHITE;
          done = true;
        }
      }
      std::cout << (done ? "ok" : "illegal") << std::endl;
    } else if (cmd == "quit") {
      break;
    } else if (!cmd.empty()) {
      std::cout << "error unknown command " << cmd << std::endl;
    }
  }
  return 0;
}
