// The 3D view: cubing.js's <twisty-player>, loaded on first use (a dynamic import that the
// bundler turns into chunks of their own, so pages without a 3D puzzle never download it).
//
// The engine stays the source of truth: a position carries `alg`, the moves (in cubing.js's
// notation) that reach it from solved, and the player shows it as setup + moves. A position one
// move past the shown one is animated; a position within the shown moves is a seek on the
// player's timeline (undo, redo, the solution's steps), whose scrubber is the player's own.

let twisty = null; // Promise of the cubing/twisty module
export function loadTwisty() {
  if (!twisty) {
    twisty = import('cubing/twisty').catch((e) => {
      twisty = null;
      throw new Error(`the 3D view could not be loaded (${e.message}); showing the flat view`);
    });
  }
  return twisty;
}

const startsWith = (list, prefix) => prefix.length <= list.length && prefix.every((m, i) => list[i] === m);

// The moves that undo `moves` (cubing.js notation: X, X', X2, 2X, Rw ...).
export function invertMoves(moves) {
  return moves.slice().reverse().map((m) => {
    if (m.endsWith("'")) return m.slice(0, -1);
    if (/\d$/.test(m) && !/^\d+$/.test(m)) return m.replace(/(\d+)$/, "$1'");
    return `${m}'`;
  });
}

// Splits an alg typed or pasted by a user into moves (whitespace, commas; comments dropped).
export function splitAlg(text) {
  return String(text).replace(/\/\/.*$/gm, ' ').split(/[\s,]+/).filter((m) => m);
}

export class View3D {
  // puzzle: cubing.js's puzzle id ("3x3x3", "pyraminx", ...); onUserMove(m): a move made on the
  // 3D puzzle itself (a click on a face); onIndex(i): the timeline moved to move i;
  // onPlaying(bool): the player started or stopped playing its timeline.
  constructor(puzzle, { onUserMove, onIndex, onPlaying } = {}) {
    this.puzzle = puzzle;
    this.onUserMove = onUserMove;
    this.onIndex = onIndex;
    this.onPlaying = onPlaying;
    this.playing = false;
    this.player = null;
    this.setup = [];
    this.moves = [];
    this.index = 0;
    this.target = null; // the move index a seek or an added move is on its way to
    this.mounting = null;
  }

  // Creates the player (async: cubing.js loads on first use). Rejects when it cannot load.
  mount() {
    if (!this.mounting) {
      this.mounting = this.create().catch((e) => {
        this.mounting = null;
        throw e;
      });
    }
    return this.mounting;
  }

  async create() {
    const { TwistyPlayer } = await loadTwisty();
    const player = new TwistyPlayer({
      puzzle: this.puzzle,
      alg: '',
      experimentalSetupAlg: '',
      hintFacelets: 'none',
      experimentalStickering: 'full', // every sticker in its colour (some puzzles default to a dimmed set)
      background: 'none',
      controlPanel: 'bottom-row',
      viewerLink: 'none',
      // PG3D: the renderer that turns a face when it is clicked (Cube3D, the 3x3x3's default, does not).
      visualization: 'PG3D',
      experimentalMovePressInput: 'basic',
      experimentalMovePressCancelOptions: { directional: 'none' },
    });
    player.className = 'twisty';
    const model = player.experimentalModel;
    // A press on the puzzle appends one move to the player's alg: hand it to the page, which
    // applies it through the engine (the shown moves already include it).
    model.alg.addFreshListener(({ alg }) => {
      const now = splitAlg(alg.toString());
      if (now.length === this.moves.length + 1 && startsWith(now, this.moves)) {
        this.moves = now;
        this.index = now.length;
        if (this.onUserMove) this.onUserMove(now[now.length - 1]);
      }
    });
    model.detailedTimelineInfo.addFreshListener(async (info) => {
      const indexer = await model.indexer.get();
      const i = info.atEnd ? this.moves.length : Math.min(this.moves.length, indexer.timestampToIndex(info.timestamp));
      // On the way to a position the page asked for: only its arrival matters.
      if (this.target !== null) {
        if (i === this.target) this.target = null;
        return;
      }
      if (i !== this.index) {
        this.index = i;
        if (this.onIndex) this.onIndex(i);
      }
    });
    model.playingInfo.addFreshListener((info) => {
      this.playing = info.playing;
      if (this.onPlaying) this.onPlaying(info.playing);
    });
    this.player = player;
    return player;
  }

  // Shows the position that `alg` (moves from solved) reaches.
  show(alg) {
    const p = this.player;
    if (!p) return;
    if (startsWith(alg, this.setup)) {
      const rest = alg.slice(this.setup.length);
      if (startsWith(this.moves, rest)) {
        if (rest.length !== this.index) this.seek(rest.length);
        return;
      }
      if (rest.length === this.index + 1 && startsWith(rest, this.moves.slice(0, this.index))) {
        // One move on: animated. Moves past it on the timeline (after an undo) are dropped.
        const m = rest[rest.length - 1];
        if (this.index < this.moves.length) {
          this.moves = rest.slice(0, -1);
          p.alg = this.moves.join(' ');
          p.timestamp = 'end';
        }
        this.moves = rest;
        this.index = rest.length;
        this.target = rest.length;
        p.experimentalAddMove(m, { cancel: false });
        return;
      }
    }
    this.reset(alg, []);
  }

  // Setup `setup`, then the timeline `moves`, at its start (a solution to play).
  reset(setup, moves) {
    this.setup = setup.slice();
    this.moves = moves.slice();
    this.index = 0;
    this.target = null;
    this.player.experimentalSetupAlg = setup.join(' ');
    this.player.alg = moves.join(' ');
    this.player.timestamp = moves.length ? 'start' : 'end';
  }

  async seek(i) {
    const p = this.player;
    this.target = i;
    if (i === this.index + 1) {
      this.index = i;
      p.controller.animationController.play({ direction: 1, untilBoundary: 'move' });
      return;
    }
    this.index = i;
    if (i >= this.moves.length) {
      p.timestamp = 'end';
      return;
    }
    const indexer = await p.experimentalModel.indexer.get();
    p.timestamp = indexer.indexToMoveStartTimestamp(i);
  }

  play() { this.player.play(); }
  togglePlay() { this.player.togglePlay(); }
}
