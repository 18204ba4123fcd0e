// @ts-check
// The quest workshop's map preview (admin): draws Zargon's seat view of a quest's start with the
// play page's own board drawing (games/heroquest/map.js), without the play page's controls.
// ES module, no build step. Reads #seat-view (json_script).

import { drawBoard } from "./games/heroquest/map.js";
import { boardTargets, indexView } from "./games/heroquest/model.js";

/** @typedef {import("./games/heroquest/seat_view.js").SeatView} SeatView */

/** @type {SeatView | null} */
const view = JSON.parse(document.getElementById("seat-view")?.textContent ?? "null");
const svg = document.getElementById("board");
if (view && svg) {
  const ui = { spell: null, throw: null, monster: null, pending: null, highlight: null };
  const index = indexView(view);
  drawBoard(svg, view, index, boardTargets(view, index, ui), ui);
  svg.dataset.drawn = "true";
}
