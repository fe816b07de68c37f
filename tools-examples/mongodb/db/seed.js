// Loads db/seed.json (the same commands the tests run through the connector) into the database
// SHOP_MONGODB_DB (default shop); idempotent: each collection is emptied, then filled.
// Run from tools-examples/mongodb:   mongosh "$SHOP_MONGODB_URL" --file db/seed.js
// (SHOP_SEED_FILE names the JSON file when it is elsewhere.)
const fs = require('fs');
const target = process.env.SHOP_MONGODB_DB || 'shop';
const file = process.env.SHOP_SEED_FILE || 'db/seed.json';
// EJSON reads {"$oid": …} and {"$date": …} as an ObjectId and a date, as the connector does
const commands = EJSON.parse(fs.readFileSync(file, 'utf8'));
for (const { command } of commands) {
  const reply = db.getSiblingDB(target).runCommand(command);
  if (reply.ok !== 1) {
    throw new Error('seed failed: ' + JSON.stringify(reply));
  }
}
print('seeded ' + target);
