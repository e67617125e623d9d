// Rules pages: for every rule set and Ugolki preset, sections and the questions players ask.
// Exactly what the game checks (docs/rules/, seeds 000, 002, 004).

const NOTE_ALG = 'Squares are named as in chess: a1 is White’s bottom-left corner, files a… run left to right and ranks 1… bottom to top. A move is written “c3-d4”, a capture “c3xe5” (or “c3:e5”) with every landing square.';
const NOTE_NUM = (/** @type {string} */ first, /** @type {string} */ range) => `The dark squares are numbered: square 1 is ${first}; ${range}. A move is written “32-28”, a capture “28x19”. The board shows each square’s number in its corner.`;

const COMMON_CAPTURE = [
  'When an opponent’s piece stands diagonally next to yours with an empty square behind it, you capture it by jumping over it onto that square.',
  'Capturing is compulsory: if you can capture, you may not make a plain move. The pieces that must capture glow in the game.',
  'A capture goes on to the end: if the piece can jump again after landing, it must.',
];

const TAP = 'Playing in the game: tap a piece and green dots show where it can go; tap a square. For a series of jumps, tap each landing square in turn, or the final square at once when only one way leads there. If different captures end on the same square, the game asks you to tap each jump.';

export default {
  american: {
    title: 'American checkers',
    intro: 'American checkers (English draughts) is played on an 8×8 board with short kings and men that capture forward only. These are the rules exactly as the game checks them.',
    sections: [
      { h: 'Board and setup', items: ['An 8×8 board; only the dark squares are used. Each player has 12 men on the dark squares of the three rows nearest to them.', 'Black moves first.'] },
      { h: 'How men move', p: 'A man moves one square diagonally forward onto an empty square, and captures forward only.' },
      { h: 'Capturing', items: [...COMMON_CAPTURE, 'If several captures are possible you may choose any, but a sequence once started must be completed.'] },
      { h: 'Kings', items: ['A man reaching the far row is crowned. Crowning ends the move, even in the middle of a capture.', 'A king moves and captures one square diagonally in any direction, forward or backward.'] },
      { h: 'End of the game', items: ['You win when your opponent has no pieces left or cannot make a legal move on their turn.', 'Draw: the same position for the third time with the same side to move, or forty moves each without a capture and without a man moving.'] },
      { h: 'Notation', p: NOTE_NUM('b8 (Black’s men start on 1–12)', 'squares are counted row by row from Black’s side') },
      { h: 'In the game', p: TAP },
    ],
    faq: [
      { q: 'Who moves first?', a: 'Black. If you choose White, the computer or your opponent starts.' },
      { q: 'Can a man capture backwards?', a: 'No. In American checkers men move and capture forward only; only kings go backwards.' },
      { q: 'Do I have to take the biggest capture?', a: 'No. You may choose any capture, but you must finish the jumps you start.' },
      { q: 'Why did my piece stop after being crowned?', a: 'Crowning ends the move, even if the new king could jump again.' },
    ],
  },
  international: {
    title: 'International draughts',
    intro: 'International draughts is the main competitive game: a 10×10 board, flying kings and the majority capture rule.',
    sections: [
      { h: 'Board and setup', items: ['A 10×10 board, dark squares only; the bottom-left square is dark.', '20 men each on the four nearest rows. White moves first.'] },
      { h: 'How men move', p: 'A man moves one square diagonally forward, and captures both forward and backward.' },
      { h: 'Capturing', items: [...COMMON_CAPTURE, 'Majority rule: you must take the capture that takes the most pieces (a king counts as one).', 'Captured pieces are removed only after the move, and no piece may be jumped twice.'] },
      { h: 'Kings', items: ['A man is crowned only if its move ends on the far row. Passing the far row in the middle of a capture that goes on leaves it a man.', 'A king moves and captures any distance along a diagonal.'] },
      { h: 'End of the game', items: ['A player with no pieces or no legal move loses.', 'Draws: third repetition; 25 moves each with only kings moving and no capture; three pieces (one a king) against a lone king: 16 moves each; two or fewer against a lone king: 5 moves each.'] },
      { h: 'Notation', p: NOTE_NUM('b10 (Black on 1–20, White on 31–50)', 'numbers run row by row from the top, left to right') },
      { h: 'In the game', p: TAP },
    ],
    faq: [
      { q: 'Must I capture the most pieces?', a: 'Yes. Of all captures you must take one that takes the most pieces; kings and men count the same.' },
      { q: 'Does my man become a king if it crosses the last row during a capture?', a: 'Only if the move ends there. If the capture goes on, it stays a man.' },
      { q: 'Why numbers instead of letters?', a: 'That is how international games are written. Every square’s number is shown on the board.' },
    ],
  },
  brazilian: {
    title: 'Brazilian draughts',
    intro: 'Brazilian draughts are the international rules on the familiar 8×8 board.',
    sections: [
      { h: 'Board and setup', items: ['8×8, dark squares, 12 men each. White moves first.'] },
      { h: 'Moves and captures', items: ['Men move forward, capture forward and backward.', ...COMMON_CAPTURE, 'You must capture the most pieces; captured pieces leave after the move.'] },
      { h: 'Kings', items: ['A man is crowned when its move ends on the far row.', 'Kings move and capture any distance.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'Draws as in international draughts: repetition, 25 king-only moves, the limits against a lone king.'] },
      { h: 'Notation', p: NOTE_ALG },
    ],
    faq: [
      { q: 'How do they differ from Russian draughts?', a: 'You must take the most pieces, and a man passing the far row in mid-capture is not crowned.' },
      { q: 'How do they differ from international?', a: 'Only the board: 8×8 with 12 men instead of 10×10 with 20.' },
    ],
  },
  canadian: {
    title: 'Canadian draughts',
    intro: 'Canadian draughts are the international rules on the largest board: 12×12 with 30 men each.',
    sections: [
      { h: 'Board and setup', items: ['12×12, dark squares, 30 men each on the five nearest rows. White moves first.'] },
      { h: 'Moves and captures', items: ['Men move forward and capture both ways; kings fly.', ...COMMON_CAPTURE, 'You must capture the most pieces.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses. Draws as in international draughts.'] },
      { h: 'Notation', p: NOTE_NUM('b12', 'squares 1–72 are counted row by row from the top') },
    ],
    faq: [
      { q: 'How long is a game?', a: 'Longer than usual: more pieces, and a longer way to the crowning row.' },
      { q: 'Is there a majority rule?', a: 'Yes, as in international draughts: take the most pieces.' },
    ],
  },
  italian: {
    title: 'Italian draughts',
    intro: 'Italian draughts is a strict game on a mirrored board where a man may never capture a king.',
    sections: [
      { h: 'Board and setup', items: ['8×8 mirrored: the dark corner is on the right; the bottom-left square is light.', '12 men each; White moves first.'] },
      { h: 'Moves', items: ['Men move and capture forward only. Kings move and capture one square in any diagonal direction.', 'A man never captures a king.'] },
      { h: 'Choosing a capture', items: [...COMMON_CAPTURE, 'Take the most pieces; then capture with a king; then take the most kings; then take a king as early as possible.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'Draw by repetition, or forty moves each without a capture or a man move.'] },
      { h: 'Notation', p: NOTE_NUM('a8 (Black on 1–12, White on 21–32, h1 = 32)', 'squares are counted row by row from the top') },
    ],
    faq: [
      { q: 'Why can’t my man capture the king?', a: 'In Italian draughts a man may never capture a king — the rule that sets the game apart.' },
      { q: 'Which capture must I take?', a: 'The game shows only the allowed ones: most pieces, then with a king, then most kings, then the earliest king.' },
    ],
  },
  spanish: {
    title: 'Spanish draughts',
    intro: 'Spanish draughts is played on a mirrored board: men capture forward only, kings fly.',
    sections: [
      { h: 'Board and setup', items: ['8×8 mirrored (dark corner on the right), 12 men each, White moves first.'] },
      { h: 'Moves', items: ['Men move and capture forward only.', 'Kings move and capture any distance diagonally. Crowning during a capture ends the move.'] },
      { h: 'Choosing a capture', items: [...COMMON_CAPTURE, 'Take the most pieces; with equal numbers, the most kings.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'Draw by repetition or after 20 moves each with only kings moving and no capture.'] },
      { h: 'Notation', p: NOTE_NUM('h1 (White on 1–12)', 'counting right to left, then up') },
    ],
    faq: [
      { q: 'Can a man capture backwards?', a: 'No, forward only.' },
      { q: 'What counts first, pieces or kings?', a: 'The number of pieces taken; kings decide only a tie.' },
    ],
  },
  russian: {
    title: 'Russian draughts',
    intro: 'Russian draughts (shashki) — exactly as the game checks them. Start a game right away: the game highlights the pieces that must capture and refuses moves against the rules.',
    sections: [
      { h: 'Board and setup', items: ['8×8, dark squares only; the bottom-left square (a1) is dark.', '12 men each on the three nearest rows: White at the bottom, Black at the top.', 'White moves first, then in turn.'] },
      { h: 'How men move', p: 'A man moves one square diagonally forward. It never moves backwards — but it does capture backwards.' },
      { h: 'Capturing', items: [...COMMON_CAPTURE, 'Men capture both forward and backward.', 'With several captures you may choose any — not necessarily the one that takes the most.', 'Captured pieces are removed only after the move; no piece may be jumped twice (the “Turkish strike”).'] },
      { h: 'Kings', items: ['A man reaching the last row becomes a king (shown with a crown).', 'If that happens during a capture, it goes on capturing at once — as a king.', 'A king moves any number of empty squares diagonally, forward and back.', 'A king captures at any distance and may stop on any empty square behind the captured piece.', 'If it can capture further from some of those squares, it must stop on one of them.'] },
      { h: 'End of the game', items: ['A player with no pieces or no legal move loses.', 'Draw when the same position occurs three times.', 'Draw after 15 moves each made only by kings without a capture.', 'Three or more kings against a lone king must win within 15 moves, or it is a draw.'] },
      { h: 'Notation', p: `${NOTE_ALG} Russian notation writes captures with a colon: “c3:e5:g3”.` },
      { h: 'In the game', p: TAP },
    ],
    faq: [
      { q: 'Is capturing compulsory?', a: 'Yes. If you can capture, you may not make a plain move.' },
      { q: 'Can a man capture backwards?', a: 'Yes. A man moves only forward but captures both forward and backward.' },
      { q: 'Must I take the capture that takes the most?', a: 'No. Any capture may be chosen, but a started sequence must be finished.' },
      { q: 'What if a man is crowned in the middle of a capture?', a: 'It goes on capturing as a king straight away, if there is anything to take.' },
    ],
  },
  czech: {
    title: 'Czech draughts',
    intro: 'Czech draughts: flying kings and one special rule — if a king can capture, a king must capture.',
    sections: [
      { h: 'Board and setup', items: ['8×8, dark squares, 12 men each, White moves first.'] },
      { h: 'Moves', items: ['Men move and capture forward only.', 'Kings move and capture any distance. A man is crowned only when its move ends on the last row.'] },
      { h: 'Capturing', items: [...COMMON_CAPTURE, 'If a king can capture, a king must; otherwise any capture may be chosen.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'Draw by repetition or after 15 moves each without a capture or a man move.'] },
      { h: 'Notation', p: NOTE_ALG },
    ],
    faq: [
      { q: 'Must I take the most pieces?', a: 'No. The only rule: if a king can capture, a king captures.' },
      { q: 'Do men capture backwards?', a: 'No, men capture forward only.' },
    ],
  },
  turkish: {
    title: 'Turkish draughts (Dama)',
    intro: 'Turkish draughts use all 64 squares, and the pieces move straight rather than diagonally.',
    sections: [
      { h: 'Board and setup', items: ['All 64 squares, 16 men each on the second and third rows. White moves first.'] },
      { h: 'Moves', items: ['A man moves and captures one square straight forward or sideways — never diagonally or backwards.', 'A king moves and captures any distance along rows and columns.'] },
      { h: 'Capturing', items: ['Capturing is compulsory; take the most pieces (a king counts as one).', 'Each piece is removed the moment it is jumped.', 'A capturing piece may not turn straight back between two jumps.', 'A man crowned during a capture goes on capturing as a king.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'A lone king against a lone king or a lone man is a draw.'] },
      { h: 'Notation', p: NOTE_ALG },
    ],
    faq: [
      { q: 'Why do the pieces move straight?', a: 'That is Turkish dama: moves and captures go along rows and columns.' },
      { q: 'Can I capture backwards?', a: 'A man cannot — only forward and sideways. A king captures in all four directions.' },
    ],
  },
  armenian: {
    title: 'Armenian draughts (Tama)',
    intro: 'Armenian tama: 64 squares, men that step forward, sideways and diagonally forward, but capture only straight.',
    sections: [
      { h: 'Board and setup', items: ['All 64 squares, 16 men each on the second and third rows. White moves first.'] },
      { h: 'Moves', items: ['A man steps one square forward, sideways or diagonally forward.', 'A man captures only straight forward or sideways.', 'A king moves like a chess queen but captures only along rows and columns.'] },
      { h: 'Capturing', items: ['Capturing is compulsory; take the most pieces.', 'Captured pieces leave at once; no turning straight back between jumps.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses; third repetition draws.'] },
      { h: 'Notation', p: NOTE_ALG },
    ],
    faq: [
      { q: 'Can a man capture diagonally?', a: 'No. Diagonally forward is a move only; captures go straight.' },
      { q: 'How does the king move?', a: 'Like a chess queen, any distance; it captures along rows and columns only.' },
    ],
  },
  thai: {
    title: 'Thai draughts (Mak-hos)',
    intro: 'Mak-hos: eight men each and a king that lands right behind the piece it captures.',
    sections: [
      { h: 'Board and setup', items: ['8×8, dark squares, 8 men each on the two nearest rows. Black moves first.'] },
      { h: 'Moves', items: ['Men move and capture diagonally forward only.', 'Kings move any distance, but when capturing must land on the square right behind the captured piece.'] },
      { h: 'Capturing', items: ['Capturing is compulsory; any capture may be chosen.', 'Pieces are removed as they are jumped. Crowning ends the move.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'A lone king against a lone king is a draw.'] },
      { h: 'Notation', p: NOTE_ALG },
    ],
    faq: [
      { q: 'Why can’t my king land further behind the captured piece?', a: 'That is the Thai rule: after a capture the king stops on the square just behind.' },
      { q: 'Who moves first?', a: 'Black.' },
    ],
  },
  poddavki: {
    title: 'Poddavki (giveaway)',
    intro: 'Poddavki are Russian draughts with the goal reversed: you win by getting rid of all your pieces or having no move.',
    sections: [
      { h: 'Board and moves', items: ['As in Russian draughts: 8×8, 12 men each, White moves first.', 'Men move forward and capture both ways; kings fly.', 'A man crowned mid-capture goes on as a king.'] },
      { h: 'Capturing', items: [...COMMON_CAPTURE, 'Any capture may be chosen; captured pieces leave after the move.'] },
      { h: 'Who wins', items: ['The side with no pieces or no legal move wins.', 'Draw by third repetition, or 15 moves each made only by kings without a capture.'] },
      { h: 'Notation', p: `${NOTE_ALG} Captures are written with a colon.` },
    ],
    faq: [
      { q: 'Is capturing compulsory in poddavki?', a: 'Yes — that is the whole game: offer pieces so your opponent must take them and cannot give theirs away.' },
      { q: 'Why did I win with no moves left?', a: 'The goal is reversed: a blocked position or an empty board is a win.' },
      { q: 'Is a king good to have?', a: 'Usually not: it is hard to give away and often ends up as the last piece on the board.' },
    ],
  },
  frisian: {
    title: 'Frisian draughts',
    intro: 'Frisian draughts: a 10×10 game where pieces also capture straight along rows and columns, and kings are worth more than men.',
    sections: [
      { h: 'Board and setup', items: ['10×10, dark squares, 20 men each. White moves first.'] },
      { h: 'Moves', items: ['Men move diagonally forward.', 'Captures go in 8 directions: diagonally, and straight along a row or column over the next dark square.', 'Kings move diagonally only (any distance) but capture in all 8 directions at any distance.'] },
      { h: 'Choosing a capture', items: ['Capturing is compulsory; take the capture of the highest value: a king is worth more than a man and less than two; with equal value, capture with a king.', 'While a side still has men, the same king may make at most three non-capturing moves in a row.'] },
      { h: 'End of the game', items: ['No pieces or no legal move loses.', 'Two kings against one must win within 7 moves; king against king is a draw unless a capture is forced.'] },
      { h: 'Notation', p: NOTE_NUM('b10', 'numbered as in international draughts') },
    ],
    faq: [
      { q: 'How does a straight capture work?', a: 'The opponent’s piece must be on the next dark square of the same row or column (one light square between), with the square behind it empty.' },
      { q: 'Why can’t my king move?', a: 'While you have men, one king may not make more than three quiet moves in a row: move another piece.' },
    ],
  },
  lasca: {
    title: 'Lasca',
    intro: 'Lasca, Emanuel Lasker’s game: captured pieces stay on the board as part of the winner’s column.',
    sections: [
      { h: 'Board and setup', items: ['7×7, 25 squares; 11 pieces each. White moves first.'] },
      { h: 'Columns', items: ['A capture takes only the top piece of the opponent’s column and puts it under your capturing column.', 'A column belongs to whoever’s piece is on top and moves as one.', 'A piece underneath is freed when the pieces above it are taken. The game draws each column as a stack so you see what is under it.'] },
      { h: 'Moves', items: ['Soldiers move and capture forward; officers (crowned soldiers) one square diagonally in any direction.', 'Capturing is compulsory; no column may be jumped twice in one move.', 'Only the top piece of a column is crowned, at the end of a move.'] },
      { h: 'End of the game', items: ['You win when your opponent has no move.', 'An officer column against an officer column is a draw.'] },
      { h: 'Notation', p: 'Squares are named a1 to g7, as in chess.' },
    ],
    faq: [
      { q: 'Where do captured pieces go?', a: 'The top piece of the captured column goes to the bottom of yours. If your column is captured later, it may be freed.' },
      { q: 'Whose column is it?', a: 'The top piece decides who moves it.' },
    ],
  },
  ugolki: {
    title: 'Ugolki (Corners)',
    intro: 'The rules of Ugolki exactly as they work in our game. Sites differ in the details, so everything the game checks is here. Start a game right away: the game highlights the legal moves.',
    sections: [
      { h: 'Board and setup', items: ['8×8, all 64 squares are used.', 'Each player has 9 pieces in a 3×3 square: White in the bottom-left corner (a1–c3), Black in the top-right (f6–h8).', 'White moves first.'] },
      { h: 'Goal', p: 'Be the first to bring all 9 pieces into the opponent’s corner: White into f6–h8, Black into a1–c3. The game highlights these corners.' },
      { h: 'Step', p: 'A piece moves to an adjacent empty square — left, right, forward or back. No diagonal moves.' },
      { h: 'Jump', p: 'A piece jumps straight over an adjacent piece — its own or the opponent’s — onto the empty square right behind it. The jumped piece stays: nothing is captured in Ugolki.' },
      { h: 'Chains of jumps', items: ['After a jump you may jump again, in any direction, as long as there is somewhere to go.', 'A chain may not come back to a square the piece already visited in this move.', 'You may stop after any jump — going on is not compulsory. In the game tap your piece or “End move”. You can also tap the last square of the chain at once.'] },
      { h: 'A step or jumps', p: 'A move is either one step or jumps; never a step then a jump or the other way round. A player with no move passes.' },
      { h: 'Who wins', items: ['Equal moves: if White fills the corner first, Black has one more move. If Black fills its corner with it, it is a draw. If Black cannot make it in one move, White wins at once.', 'No hiding at home: from move 40 on, a player with any piece still on its own starting squares after a move loses. If both do, it is a draw.', 'Also a draw: neither side can move, the same position for the third time, or 150 moves each without a winner.'] },
      { h: 'Tips', items: ['Build “ladders” of your pieces: other pieces travel far along them in one chain of jumps.', 'Leave no stragglers: the last piece at home after move 40 loses the game.', 'Inside the opponent’s corner take the far squares first so you don’t block the way in.'] },
    ],
    faq: [
      { q: 'May I jump over my opponent’s pieces?', a: 'Yes, over any adjacent piece — yours or theirs. Nothing is removed.' },
      { q: 'May I jump over two pieces at once?', a: 'No. A jump goes over exactly one adjacent piece onto the empty square right behind it.' },
      { q: 'Must I continue a chain of jumps?', a: 'No. You may stop after any jump.' },
      { q: 'What does “move 40” mean?', a: 'A move is White’s move and Black’s reply; the current move number is shown under the board. When both have made 40 moves (and after every Black reply from then on), the game checks the corners: anyone with a piece still on its own starting squares loses. From move 35 the game warns you if your pieces are still at home.' },
    ],
  },
  'ugolki-brainking': {
    title: 'Ugolki, BrainKing rules',
    intro: 'Ugolki as played on BrainKing: steps and jumps in all eight directions, and the first to fill the corner wins.',
    sections: [
      { h: 'Board and setup', items: ['8×8, 9 pieces each in a 3×3 square: White on a1–c3, Black on f6–h8. White moves first.'] },
      { h: 'Moves', items: ['A step goes to an adjacent empty square in any of 8 directions, diagonals included.', 'A jump goes over an adjacent piece (any colour) in any of 8 directions onto the empty square behind it; jumps chain on without returning to squares of this move.', 'A move is either a step or jumps.'] },
      { h: 'Who wins', items: ['The first to bring all pieces into the opponent’s corner wins; there is no extra move for the other side.', 'After any of your own moves from your 31st on, a piece on your starting squares loses the game — so you may not move back home either.'] },
    ],
    faq: [
      { q: 'May I move diagonally?', a: 'Yes, in this variant steps and jumps go in all 8 directions.' },
      { q: 'Does my opponent get one more move when I fill the corner first?', a: 'No: under BrainKing rules the first to fill the corner wins.' },
    ],
  },
  'ugolki-brainking-10': {
    title: 'Ugolki 10×10 (BrainKing)',
    intro: 'Big Ugolki: a 10×10 board with 16 pieces each in a 4×4 square, moving in all 8 directions.',
    sections: [
      { h: 'Board and setup', items: ['10×10, 16 pieces each: White on a1–d4, Black on g7–j10. White moves first.'] },
      { h: 'Moves', items: ['Steps and jumps in all 8 directions, as in BrainKing Ugolki on 8×8; chains never return to a square of this move.'] },
      { h: 'Who wins', items: ['The first to fill the opponent’s corner wins.', 'After any of your own moves from your 51st on, a piece on your starting squares loses.'] },
    ],
    faq: [
      { q: 'How long do I have to leave home?', a: 'Fifty moves: after your 51st move a piece at home loses. The game warns you in time.' },
      { q: 'How do I cross the board quickly?', a: 'Build ladders: a long chain of diagonal jumps carries a piece across half the board.' },
    ],
  },
};
