// The clock of `parceiro tournament --cpu-clock`: CPU time of this process (user and system), in ms.
// On a machine shared with other work, wall-clock budgets give a player whatever share of a core it
// is scheduled; CPU-time budgets give every player the same thinking, whatever the load.

export function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
