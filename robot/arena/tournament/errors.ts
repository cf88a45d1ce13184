// A tournament that cannot be set up as asked (an unreachable Redis, a model or program that will
// not load, a worker that cannot play its boards): the user's mistake, one line and exit code 2 at
// the command line (launch/cli.ts lists this class among the user errors).

export class TournamentSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TournamentSetupError';
  }
}
