// The suite runs in a zone far from UTC (Tehran, +03:30) so that anything reading or writing times
// in the machine's zone instead of UTC fails here, not on a support team's laptop.
module.exports = async () => {
  process.env.TZ = 'Asia/Tehran';
};
