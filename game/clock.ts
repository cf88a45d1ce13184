// Time as the game sees it: read through an injected clock, so that timing never leaks into the rules.
// The interface only: the game has no clock of its own.

/** A clock in milliseconds. */
export type Clock = () => number;
