// The TUIO adapter's public surface: a camera table (reacTIVision, TUIO 1.1 / 2.0 over UDP) as a touch
// table of the protocol, its settings and geometry, the calibration, and the simulated camera and people
// that check a setup without cards.

export { TuioPacketError, decodeTuioPacket, encodeTuioFrame } from './tuio-packets.js';
export type { TuioFrame, TuioMarker } from './tuio-packets.js';
export { MarkerBoard } from './marker-board.js';
export { CardPlacements, zoneAt, zoneName } from './placements.js';
export type { PlacementEvent, TableZone } from './placements.js';
export { cardReport, dealerDue } from './card-reports.js';
export { HelloRefused, TableLink } from './table-link.js';
export type { LinkEvent } from './table-link.js';
export { TuioListener } from './tuio-listener.js';
export { TuioTable } from './tuio-table.js';
export { DEFAULT_TUIO_FILE, firstDealerFor, loadTuioSettings, parseTuioSettings, zonesSchema } from './tuio-config.js';
export type { TableGeometry, TuioFile, TuioSettings } from './tuio-config.js';
export { CalibrationError, Calibrator, withZones } from './calibration.js';
export { TuioCamera } from './tuio-camera.js';
export { TuioPlayers, handSlots } from './tuio-players.js';
export type { TuioPlayersSummary } from './tuio-players.js';
export { aroundCentre, centroid, contains, overlap, selfIntersects } from './polygons.js';
export type { Point, Polygon } from './polygons.js';
