// A study's mistakes that the person at the command line can fix (a duplicate code, a participant
// without consent, a session in the wrong state): told in one line, exit code 2 (launch/cli.ts).

export class StudyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StudyError';
  }
}
