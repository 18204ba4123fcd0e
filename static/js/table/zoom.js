// The board's zoom, every game's: "Fit" shows the whole board in its box, + and − step, a pinch
// or ctrl+wheel zooms about the point between the fingers (or under the pointer), and the scroll
// follows so that point stays put. A touch screen opens the board at least big enough for a
// finger to hit one board unit (a square, a space).

const MAX_ZOOM = 6;
const STEP = 1.25;

export const touchScreen = () => window.matchMedia?.("(pointer: coarse)").matches ?? false;

export class BoardZoom {
  /**
   * @param {{svg: SVGSVGElement, scroller: HTMLElement, playablePx?: number, fallbackBox?: [number, number], onPinch?: () => void}} options
   *   `playablePx`: the width one board unit needs on a touch screen; `fallbackBox`: the
   *   board's [width, height] in units until it has a viewBox; `onPinch`: a pinch moved (the
   *   page then ignores the click the fingers' lifting makes).
   */
  constructor({ svg, scroller, playablePx = 40, fallbackBox = [10, 8], onPinch = () => {} }) {
    Object.assign(this, { svg, scroller, playablePx, fallbackBox, onPinch });
    this.level = 1;
  }

  /** The board's size in units: its viewBox's, else the fallback. */
  box() {
    const box = this.svg.viewBox.baseVal;
    return box?.width && box.height ? box : { x: 0, y: 0, width: this.fallbackBox[0], height: this.fallbackBox[1] };
  }

  /** The board's width when fitted: the whole board in its box, by width and by height. */
  fitWidth() {
    const box = this.box();
    const maxHeight = Number.parseFloat(getComputedStyle(this.scroller).maxHeight) || window.innerHeight * 0.7;
    return Math.max(200, Math.min(this.scroller.clientWidth - 2, (maxHeight - 2) * (box.width / box.height)));
  }

  /** Size the board for the current zoom (after the viewBox or the window changed). */
  apply() {
    this.svg.style.width = `${Math.round(this.fitWidth() * this.level)}px`;
  }

  /** Zoom to `level` (1: fitted) about `focus` ({x, y} in the scroller's box; its middle if null). */
  set(level, focus = null) {
    const old = this.level;
    this.level = Math.min(MAX_ZOOM, Math.max(1, level));
    const s = this.scroller;
    const fx = focus?.x ?? s.clientWidth / 2;
    const fy = focus?.y ?? s.clientHeight / 2;
    const ratio = this.level / old;
    const left = (s.scrollLeft + fx) * ratio - fx;
    const top = (s.scrollTop + fy) * ratio - fy;
    this.apply();
    s.scrollLeft = left;
    s.scrollTop = top;
  }

  /** The zoom at which one unit is `playablePx` wide (1 if the fitted board is already). */
  playable() {
    return Math.max(1, this.playablePx / (this.fitWidth() / this.box().width));
  }

  /** A mouse opens the board fitted (all of it in view); a touch screen at a playable size. */
  initial() {
    this.level = touchScreen() ? Math.min(MAX_ZOOM, this.playable()) : 1;
    this.apply();
  }

  /** After a redraw that may change the board's size: the opening zoom the first time, the
   * reader's own zoom from then on. */
  settle() {
    if (this.settled) this.apply();
    else this.initial();
    this.settled = true;
  }

  /** Scroll so that the board point (x, y), in units, is in the middle of the box. */
  centreOn(x, y) {
    const box = this.box();
    const unit = this.svg.getBoundingClientRect().width / box.width;
    const s = this.scroller;
    s.scrollLeft = (x - box.x) * unit - s.clientWidth / 2;
    s.scrollTop = (y - box.y) * unit - s.clientHeight / 2;
  }

  /** Wire the + / Fit / − buttons (any may be missing), the window's resizes, pinch and wheel. */
  wire({ zoomIn = null, zoomOut = null, fit = null } = {}) {
    zoomIn?.addEventListener("click", () => this.set(this.level * STEP));
    zoomOut?.addEventListener("click", () => this.set(this.level / STEP));
    fit?.addEventListener("click", () => this.set(1));
    window.addEventListener("resize", () => this.apply());
    this.wirePinch();
  }

  wirePinch() {
    const scroller = this.scroller;
    const pointers = new Map();
    let start = null;
    const dist = () => {
      const [a, b] = [...pointers.values()];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    scroller.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2) start = { d: dist(), level: this.level };
    });
    scroller.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2 && start?.d) {
        const [a, b] = [...pointers.values()];
        const rect = scroller.getBoundingClientRect();
        this.set(start.level * (dist() / start.d), { x: (a.x + b.x) / 2 - rect.left, y: (a.y + b.y) / 2 - rect.top });
        this.onPinch();
      }
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) start = null;
    };
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) scroller.addEventListener(type, end);
    scroller.addEventListener(
      "wheel",
      (e) => {
        if (!e.ctrlKey) return;
        e.preventDefault();
        const rect = scroller.getBoundingClientRect();
        this.set(this.level * Math.exp(-e.deltaY / 300), { x: e.clientX - rect.left, y: e.clientY - rect.top });
      },
      { passive: false },
    );
  }
}
