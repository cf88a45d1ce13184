// Written by `node dist/test/bench/hand-assessment.js fit` (do not edit): the hand assessment's model.
// Weights in the order of HAND_FEATURES: trumps, trumpAce, trumpSeven, trumpKing, trumpJack, trumpQueen, sideAces, sideSevensWithAce, sideSevensBare, sideKings, sideLength, voids, singletons, pointsInHand, partnerTurnedUp, partnerTurnedUpPoints, opponentTurnedUp, opponentTurnedUpPoints, leadsFirst.
import type { HandModel } from './features.js';
import { HAND_FEATURES } from './features.js';

export const FITTED_MODEL: HandModel = {
  features: HAND_FEATURES,
  points: {
    intercept: 39.3427,
    weights: [
      1.7464, 13.3959, 5.9333, 1.9839, 0.5568, 0.0655, 8.9828, 1.1696, 2.6216, 0.313, -0.3515, 9.5246, 2.9144, 0.0401,
      0.1715, 0.9834, -0.5338, -0.4964, -0.1007,
    ],
  },
  win: {
    intercept: -2.0428,
    weights: [
      0.1867, 1.114, 0.3946, 0.1075, -0.0053, -0.0359, 0.6334, -0.0516, 0.0919, -0.0205, -0.0124, 0.7693, 0.2221,
      0.0179, 0.0077, 0.0907, -0.0398, -0.0492, -0.0068,
    ],
  },
  fittedOn:
    'node dist/test/bench/hand-assessment.js fit --deals 20000 --worlds 8 --seed 404: 80000 hands, each with 8 deals of the other cards played out by four expert players',
};
