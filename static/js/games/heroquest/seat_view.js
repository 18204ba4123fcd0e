// @ts-check
// The seat view the server sends (apps/games/heroquest/engine/seat_views.py), as JSDoc types for `tsc --noEmit`.
// Types only: importing this module adds nothing at run time.

/** @typedef {[number, number]} Point  a square as [x, y] */

/**
 * @typedef {object} Turn
 * @property {"draft" | "heroes" | "monsters" | "over"} phase
 * @property {string | null} hero
 * @property {number | null} seat
 * @property {boolean} movement_rolled
 * @property {number} movement_left
 * @property {boolean} has_moved
 * @property {boolean} has_acted
 * @property {string | null} active_monster
 * @property {number} monster_movement_left
 * @property {boolean} monster_has_attacked
 */

/**
 * @typedef {object} Square
 * @property {number} x
 * @property {number} y
 * @property {string} area
 * @property {string} walls  the sides with a wall: "N", "E", "S", "W" in any order
 * @property {boolean} revealed
 */

/**
 * @typedef {object} Door
 * @property {string} id
 * @property {[Point, Point]} between
 * @property {boolean} open
 * @property {boolean} secret
 * @property {boolean} found
 * @property {string | null} locked_by
 */

/**
 * @typedef {object} Trap
 * @property {string} id
 * @property {string} kind
 * @property {Point | null} square
 * @property {string | null} furniture
 * @property {"armed" | "sprung" | "disarmed"} state
 * @property {boolean} detected
 */

/**
 * @typedef {object} Furniture
 * @property {string} id
 * @property {string} kind
 * @property {Point[]} squares
 */

/**
 * @typedef {object} Area
 * @property {string} id
 * @property {"room" | "passage"} kind
 * @property {string} name
 * @property {boolean} revealed
 */

/**
 * @typedef {object} BoardMap
 * @property {number} width
 * @property {number} height
 * @property {Square[]} squares
 * @property {Area[]} areas
 * @property {Door[]} doors
 * @property {Point[]} blocked
 * @property {Point[]} stairway
 * @property {Furniture[]} furniture
 * @property {Trap[]} traps
 */

/**
 * @typedef {object} Hero
 * @property {string} hero
 * @property {string} name
 * @property {number} seat
 * @property {Point | null} position
 * @property {"playing" | "fallen" | "escaped"} status
 * @property {number} body
 * @property {number} body_max
 * @property {number} mind
 * @property {number} mind_max
 * @property {string | null} weapon
 */

/**
 * @typedef {object} Monster
 * @property {string} id  an action's handle, never shown to a player
 * @property {string} kind
 * @property {string} [name]  as the story names it: "the orc", "the second orc", a villain's own name
 * @property {number | null} [number]  among the monsters of its kind the heroes have seen (null: named or unseen)
 * @property {Point | null} position
 * @property {number} body
 * @property {number} body_max
 * @property {number} move
 */

/**
 * @typedef {{type: string, [field: string]: any}} Action  one of legal_actions, sent back as is
 */

/**
 * @typedef {object} SeatView
 * @property {number} seat
 * @property {"zargon" | "hero" | "spectator"} role
 * @property {string[]} heroes_owned
 * @property {number} round
 * @property {Turn} turn
 * @property {{name: string, parchment: string}} quest
 * @property {BoardMap} map
 * @property {Hero[]} heroes
 * @property {Monster[]} monsters
 * @property {Action[]} legal_actions
 * @property {object[]} log
 * @property {"heroes" | "zargon" | "retreat" | null} outcome
 */

export {};
