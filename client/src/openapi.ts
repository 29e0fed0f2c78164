/**
 * Generated from Hangar's OpenAPI document by `npm run client:generate`; do not edit.
 * CI fails when it differs from what the API serves (`npm run client:check`).
 */
export interface paths {
    "/v1/agent_4-go/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the organization's agent_4 key is set (alias of the agent_4 credential) */
        get: operations["getAgent4GoCredentials"];
        put?: never;
        /** Set the organization's agent_4 key (admins) */
        post: operations["setAgent4GoCredentials"];
        /** Remove the organization's agent_4 key (admins) */
        delete: operations["deleteAgent4GoCredentials"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent_4-go/user/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the caller's personal agent_4 key is set (alias of the agent_4 credential) */
        get: operations["getAgent4GoUserCredentials"];
        put?: never;
        /** Set the caller's personal agent_4 key */
        post: operations["setAgent4GoUserCredentials"];
        /** Remove the caller's personal agent_4 key */
        delete: operations["deleteAgent4GoUserCredentials"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ai-gateway/{agent}/*path": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same forwarding for GET and HEAD requests (e.g. model lists) */
        get: operations["proxyAiGatewayGet"];
        put?: never;
        /** Forward a coding agent's provider request with the workspace's placeholder key (x-api-key or Authorization: Bearer) replaced by the resolved credential; agent_1 speaks Anthropic's API, agents 2–5 OpenAI-style APIs */
        post: operations["proxyAiGateway"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ai-gateway/enabled-models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The model ids enabled for the organization, per catalog */
        get: operations["getEnabledModels"];
        /** Replace the enabled model ids of one catalog (admins; an empty list restores the default) */
        put: operations["setEnabledModels"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ai-gateway/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search a page of the model catalog (live with an organization key, built-in otherwise) */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workspaces created, pull requests, compute minutes and model usage over a time range (admins) */
        get: operations["getAnalyticsOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List automations (filters: enabled, search, trigger_type, scope) */
        get: operations["listAutomations"];
        put?: never;
        /** Create an organization or personal automation */
        post: operations["createAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an automation */
        get: operations["getAutomation"];
        put?: never;
        post?: never;
        /** Delete an automation and all its execution history */
        delete: operations["deleteAutomation"];
        options?: never;
        head?: never;
        /** Update an automation (only the fields sent change) */
        patch: operations["updateAutomation"];
        trace?: never;
    };
    "/v1/automations/{id}/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Run history of an automation, newest first */
        get: operations["listAutomationExecutions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fire an automation by hand (also when disabled); waits up to ~15 s for its workspace id */
        post: operations["triggerAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/webhook/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fire an automation with a custom trigger; the body (JSON, or anything else as {raw}) becomes the trigger payload. With an `Idempotency-Key` header a retry is answered again (`Idempotent-Replayed: true`) without firing twice; keys are kept 7 days */
        post: operations["automationWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's Slack, Linear, Sentry and GitLab connections (which secrets are set, never their values) */
        get: operations["listConnections"];
        put?: never;
        /** Connect a Slack workspace, Linear workspace, Sentry organization or GitLab (admins); its secrets are sealed at rest. GitLab: its hooks' webhook_token decides which organization a delivery reaches, and answers are posted with its api_token */
        post: operations["createConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{connectionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One connection */
        get: operations["getConnection"];
        put?: never;
        post?: never;
        /** Disconnect (admins); the connection's threads stop routing */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        /** Rename a connection, rotate some of its secrets (merged) or replace its settings (admins) */
        patch: operations["updateConnection"];
        trace?: never;
    };
    "/v1/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every agent's organization and personal credential, as the caller may see them */
        get: operations["listCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/desktop/download/macos/{arch}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download the newest desktop app for macOS (a redirect to a short-lived link) */
        get: operations["downloadMacDesktopApp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/desktop/files/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A published release file, through a signed link from the download or update operations */
        get: operations["getReleaseFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/desktop/update/macos/{arch}/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check for a newer desktop app for macOS */
        get: operations["getMacDesktopUpdate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environment-skills/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the skills directory (an empty `q` lists popular skills) */
        get: operations["searchEnvironmentSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List environments (org scope includes Global) */
        get: operations["listEnvironments"];
        put?: never;
        /** Create a team or personal environment */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the files of an environment (by id or `global`) */
        get: operations["listEnvironmentFiles"];
        put?: never;
        /** Add a file to an environment */
        post: operations["createEnvironmentFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/files/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a file from an environment */
        delete: operations["deleteEnvironmentFile"];
        options?: never;
        head?: never;
        /** Update a file */
        patch: operations["updateEnvironmentFile"];
        trace?: never;
    };
    "/v1/environments/{environmentId}/mcps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the MCP servers of an environment (by id or `global`) */
        get: operations["listEnvironmentMcps"];
        put?: never;
        /** Add a MCP server to an environment */
        post: operations["createEnvironmentMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/mcps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a MCP server from an environment */
        delete: operations["deleteEnvironmentMcp"];
        options?: never;
        head?: never;
        /** Update a MCP server */
        patch: operations["updateEnvironmentMcp"];
        trace?: never;
    };
    "/v1/environments/{environmentId}/repo-skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Skills, agents, commands and prompts committed to the environment's repositories, read live from their default branch */
        get: operations["listRepoSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the skills of an environment (by id or `global`) */
        get: operations["listEnvironmentSkills"];
        put?: never;
        /** Add a skill to an environment */
        post: operations["createEnvironmentSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/skills-registries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's skills registries, each with the skills discovered in it now */
        get: operations["listEnvironmentSkillsRegistries"];
        put?: never;
        /** Add a GitHub repository as a skills registry: its skills are installed into workspaces at provisioning */
        post: operations["createEnvironmentSkillsRegistry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/skills-registries/{skillsRegistryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a skills registry from the environment */
        delete: operations["deleteEnvironmentSkillsRegistry"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/skills/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a skill from an environment */
        delete: operations["deleteEnvironmentSkill"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/start-hooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the active start hook */
        get: operations["getStartHook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/start-hooks/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Save the start hook (a new version; empty content clears it) */
        post: operations["saveStartHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/start-hooks/save-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Save the start hook, then test it (saved even when the test fails) */
        post: operations["saveAndTestStartHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/start-hooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a start hook in a fresh sandbox without saving it */
        post: operations["testStartHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/start-hooks/test/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a start hook in a fresh sandbox, streaming progress and output as server-sent events */
        post: operations["streamStartHookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the variables of an environment (by id or `global`) */
        get: operations["listEnvironmentVariables"];
        put?: never;
        /** Add a variable to an environment */
        post: operations["createEnvironmentVariable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/variables/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a variable from an environment */
        delete: operations["deleteEnvironmentVariable"];
        options?: never;
        head?: never;
        /** Update a variable */
        patch: operations["updateEnvironmentVariable"];
        trace?: never;
    };
    "/v1/environments/{environmentId}/warm-hooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the active warm hook and the warm-pool settings */
        get: operations["getWarmHook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/warm-hooks/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Save the warm hook (a new version; empty content clears it) */
        post: operations["saveWarmHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/warm-hooks/save-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Save the warm hook, then test it (saved even when the test fails) */
        post: operations["saveAndTestWarmHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/warm-hooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a warm hook in a fresh sandbox without saving it */
        post: operations["testWarmHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{environmentId}/warm-pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Enable or disable the environment's warm pool */
        put: operations["setWarmPool"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/environments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an environment by id or `global` */
        get: operations["getEnvironment"];
        put?: never;
        post?: never;
        /** Delete an environment */
        delete: operations["deleteEnvironment"];
        options?: never;
        head?: never;
        /** Update an environment (not Global) */
        patch: operations["updateEnvironment"];
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow the organization's live events (server-sent events): members' presence */
        get: operations["streamOrganizationEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The replica tools as an MCP server (Streamable HTTP, stateless: no session, JSON answers). Send MCP JSON-RPC messages with `Accept: application/json, text/event-stream`; each tool calls this API with the same key. */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organization/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the unrevoked API keys of the organization (admins only), newest first */
        get: operations["listOrganizationApiKeys"];
        put?: never;
        /** Create an API key of the organization (admins only); the secret `key` appears only in this answer */
        post: operations["createOrganizationApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organization/api-keys/{apiKeyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key of the organization (admins only); it is refused from its next request on */
        delete: operations["revokeOrganizationApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organization/credentials/{agent}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's credential for an agent (members see only whether it is configured) */
        get: operations["getOrganizationCredential"];
        put?: never;
        /** Set or replace the organization's credential for an agent (admins) */
        post: operations["setOrganizationCredential"];
        /** Remove the organization's credential for an agent (admins) */
        delete: operations["deleteOrganizationCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organization/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's default coding agent, models and environment, and its code-hosting settings */
        get: operations["getOrganizationSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the organization's defaults (admins) */
        patch: operations["updateOrganizationSettings"];
        trace?: never;
    };
    "/v1/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's plugin installs */
        get: operations["listOrganizationPlugins"];
        put?: never;
        /** Install a plugin for every member (admins) */
        post: operations["installOrganizationPlugin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the organization's plugin installs */
        get: operations["getOrganizationPlugin"];
        put?: never;
        post?: never;
        /** Uninstall: workspaces stop getting it at their next turn */
        delete: operations["deleteOrganizationPlugin"];
        options?: never;
        head?: never;
        /** Rename, enable or disable an install, or replace its config or secret */
        patch: operations["updateOrganizationPlugin"];
        trace?: never;
    };
    "/v1/plugins/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The native plugins Hangar serves, and whether this deployment can serve each */
        get: operations["listPluginCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/presence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's members online now, optionally only those at one location */
        get: operations["listPresence"];
        /** The member's heartbeat: where they are and whether they are typing (personal API key; send one well within the expiry, e.g. every 10 s) */
        put: operations["putPresence"];
        post?: never;
        /** The member leaves now instead of at the expiry (personal API key) */
        delete: operations["deletePresence"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/previews/{port}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Agent mode: stop sharing a port of the calling workspace (engine secret and X-Workspace-Id) */
        delete: operations["deleteAgentPreview"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List workspaces (newest first; archived by last activity) */
        get: operations["listReplicas"];
        put?: never;
        /** Create a workspace; with X-Api-Version 2026-05-17 it answers at once (preparing) */
        post: operations["createReplica"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a workspace (reading a sleeping or archived one wakes it) */
        get: operations["getReplica"];
        put?: never;
        post?: never;
        /** Delete a workspace: gone from every read at once, its container and volume removed */
        delete: operations["deleteReplica"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Archive a workspace (container and volume removed; wakeable) */
        post: operations["archiveReplica"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/canvas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the files the agent left in the workspace's canvas directory (~/.hangar/canvas/); a sleeping workspace is not woken */
        get: operations["listReplicaCanvasItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/canvas/{filename}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one canvas item: text in `content`, other kinds in `base64`, `tooLarge: true` over 5 MB */
        get: operations["getReplicaCanvasItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the chats of a replica (wakes a sleeping or archived one: `waking: true`) */
        get: operations["listReplicaChats"];
        put?: never;
        /** Create a chat (emits `chat.created` with the clientRequestId) */
        post: operations["createReplicaChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/chats/{chatId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a chat (its queued messages are dropped; emits `chat.deleted`) */
        delete: operations["deleteReplicaChat"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/chats/{chatId}/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The messages waiting in a chat (the running one excluded) */
        get: operations["getReplicaChatQueue"];
        put?: never;
        post?: never;
        /** Drop every queued message (the running one continues) */
        delete: operations["clearReplicaChatQueue"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/chats/{chatId}/queue/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Drop one queued message */
        delete: operations["removeReplicaQueuedMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/chats/{chatId}/queue/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Move a queued message to a zero-based position */
        patch: operations["reorderReplicaChatQueue"];
        trace?: never;
    };
    "/v1/replica/{id}/chats/{chatId}/slash-commands": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The slash commands of a chat: those its agent's CLI reported at its session's start */
        get: operations["listReplicaSlashCommands"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow the replica's events (server-sent events; replays after Last-Event-ID or ?after=) */
        get: operations["streamReplicaEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chat's agent events, paged backwards from the newest (wakes a sleeping replica) */
        get: operations["getReplicaHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/hooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Warm and start hook logs of the workspace */
        get: operations["getReplicaHookLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's media files, newest first */
        get: operations["listReplicaMedia"];
        put?: never;
        /** Upload a media file: the raw bytes as the body, the name in `filename` (or X-Filename); also from inside the workspace */
        post: operations["uploadReplicaMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/media/{mediaId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One media file */
        get: operations["getReplicaMedia"];
        put?: never;
        post?: never;
        /** Delete a media file; its links stop working at once */
        delete: operations["deleteReplicaMedia"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/media/{mediaId}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a signed link opens: the bytes, with Range support (no other auth; the token is the permission) */
        get: operations["getReplicaMediaContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/media/{mediaId}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A short-lived signed URL to download (attachment) or preview (inline) the file; 15 minutes by default */
        post: operations["createReplicaMediaLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message to a chat (queued while the agent is busy; wakes a sleeping workspace) */
        post: operations["sendReplicaMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/sleep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put an active workspace to sleep (container stopped, volume kept) */
        post: operations["sleepReplica"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/{id}/wake": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Wake a sleeping or archived workspace */
        post: operations["wakeReplica"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/repositories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's connected repositories */
        get: operations["listRepositories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replica/repository-sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's repository sets */
        get: operations["listRepositorySets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/slack/threads/attach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Route a Slack thread to a workspace (API key, or a workspace's engine secret for itself only) */
        post: operations["attachSlackThread"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the unrevoked API keys of the calling user, newest first */
        get: operations["listPersonalApiKeys"];
        put?: never;
        /** Create an API key of the calling user; the secret `key` appears only in this answer */
        post: operations["createPersonalApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/api-keys/{apiKeyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key of the calling user; it is refused from its next request on */
        delete: operations["revokePersonalApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your linked Slack, Linear, GitHub and GitLab identities (an organization key: every member's) */
        get: operations["listUserConnections"];
        put?: never;
        /** Link a provider identity to a member by hand (admins; Slack and Linear identities with the same verified email link themselves). GitHub and GitLab identities are the account's numeric user id, never the login */
        post: operations["linkUserConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/connections/{identityId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unlink an identity (your own; admins any member’s) */
        delete: operations["unlinkUserConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/credentials/{agent}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's personal credential for an agent (personal API keys only) */
        get: operations["getUserCredential"];
        put?: never;
        /** Set or replace the caller's personal credential for an agent; it wins over the organization's */
        post: operations["setUserCredential"];
        /** Remove the caller's personal credential for an agent */
        delete: operations["deleteUserCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's own plugin installs */
        get: operations["listUserPlugins"];
        put?: never;
        /** Install a plugin for yourself; it replaces the organization's install of the same slug in your workspaces */
        post: operations["installUserPlugin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the caller's own plugin installs */
        get: operations["getUserPlugin"];
        put?: never;
        post?: never;
        /** Uninstall: workspaces stop getting it at their next turn */
        delete: operations["deleteUserPlugin"];
        options?: never;
        head?: never;
        /** Rename, enable or disable an install, or replace its config or secret */
        patch: operations["updateUserPlugin"];
        trace?: never;
    };
    "/v1/user/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling user's profile (personal API keys only) */
        get: operations["getProfile"];
        /** Update the display name and/or avatar URL; omitted fields keep their value */
        put: operations["updateProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/warm-pool-workspaces/{workspaceId}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow a warm-pool workspace: its warm hooks' output while warming, then its final record */
        get: operations["streamWarmPoolWorkspace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/warm-pools/{configId}/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A warm pool's most recent workspaces (up to 10) */
        get: operations["listWarmPoolWorkspaces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** GitHub webhook receiver (X-Hub-Signature-256); pull_request events fire matching automations */
        post: operations["githubWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/gitlab": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** GitLab webhook receiver: X-Gitlab-Token is an organization's GitLab connection token (or, in a deployment of one organization, HANGAR_GITLAB_WEBHOOK_TOKEN); merge request events fire that organization's matching automations, and mentions and notes reach its threads, for its own connected repositories only */
        post: operations["gitlabWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/linear": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Linear webhook receiver (Linear-Signature, webhookTimestamp within 60 s): issues assigned to Hangar start a workspace, comments reach it, finishing the issue closes it */
        post: operations["linearWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/sentry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sentry integration webhook receiver (Sentry-Hook-Signature); issue, event_alert and error deliveries fire sentry automations */
        post: operations["sentryWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/slack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Slack Events API receiver (X-Slack-Signature with the connection's signing secret): mentions, direct messages and thread replies */
        post: operations["slackEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Archive a workspace (container and volume removed; wakeable) */
        post: operations["archiveWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the chats of a workspace in any state, without waking it */
        get: operations["listWorkspaceChats"];
        put?: never;
        /** Create a chat at once, also while the workspace prepares or sleeps */
        post: operations["createWorkspaceChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/chats/{chatId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message to a chat of a workspace in any state but archived or error (queued while it prepares or sleeps) */
        post: operations["sendWorkspaceChatMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/chats/{chatId}/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The messages waiting in a chat (the running one excluded) */
        get: operations["getWorkspaceChatQueue"];
        put?: never;
        post?: never;
        /** Drop every queued message (the running one continues) */
        delete: operations["clearWorkspaceChatQueue"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/chats/{chatId}/queue/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Drop one queued message */
        delete: operations["removeWorkspaceQueuedMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/chats/{chatId}/queue/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Move a queued message to a zero-based position */
        patch: operations["reorderWorkspaceChatQueue"];
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/messages/deferred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a message in a new or given chat and wake the workspace */
        post: operations["sendDeferredWorkspaceMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plugins a workspace gets: the organization's, with its owner's own installs in their place (API key, or the workspace's engine secret) */
        get: operations["listWorkspacePlugins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/plugins/{installId}/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace's MCP event stream from one of its plugins (when the plugin's server offers one) */
        get: operations["getWorkspacePluginMcp"];
        put?: never;
        /** A workspace's MCP request to one of its plugins */
        post: operations["postWorkspacePluginMcp"];
        /** Ends a workspace's MCP session with one of its plugins (when the plugin's server keeps one) */
        delete: operations["deleteWorkspacePluginMcp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/previews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's shared ports and their URLs (API key, or the workspace's engine secret) */
        get: operations["listWorkspacePreviews"];
        put?: never;
        /** Share a port of the workspace at a URL, public or for members only */
        post: operations["createWorkspacePreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/previews/{port}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Stop sharing a port; its URL and links stop working at once */
        delete: operations["deleteWorkspacePreview"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/previews/{port}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed, expiring, revocable link that opens the preview in a browser */
        post: operations["createWorkspacePreviewLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/previews/{port}/links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a link: it and the browser sessions it opened stop working at once */
        delete: operations["revokeWorkspacePreviewLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/sleep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put an active workspace to sleep (container stopped, volume kept) */
        post: operations["sleepWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/terminal/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the terminal sessions of an active workspace */
        get: operations["listTerminalSessions"];
        put?: never;
        /** Open a terminal (a login shell as the workspace user, on a real TTY) */
        post: operations["createTerminalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/terminal/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Stop the shell and delete the session */
        delete: operations["deleteTerminalSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/terminal/sessions/{sessionId}/input": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Write a batch of input; batches apply in sequence order within a generation */
        post: operations["writeTerminalInput"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/terminal/sessions/{sessionId}/resize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resize the terminal */
        post: operations["resizeTerminalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces/{workspaceId}/terminal/sessions/{sessionId}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow the terminal: recent output replayed, then live output, as server-sent events */
        get: operations["streamTerminalSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            details?: string | null;
            error: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAgent4GoCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether a key is set, masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Masked: `••••` and at most the last four characters */
                        apiKey?: string;
                        /** Format: uuid */
                        credentialId?: string;
                        hasCredentials: boolean;
                        /** Format: date-time */
                        lastFetchedAt?: string;
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setAgent4GoCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The agent_4 key */
                    api_key: string;
                };
            };
        };
        responses: {
            /** @description Stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        credentialId: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAgent4GoCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgent4GoUserCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether a key is set, masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Masked: `••••` and at most the last four characters */
                        apiKey?: string;
                        /** Format: uuid */
                        credentialId?: string;
                        hasCredentials: boolean;
                        /** Format: date-time */
                        lastFetchedAt?: string;
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setAgent4GoUserCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The agent_4 key */
                    api_key: string;
                };
            };
        };
        responses: {
            /** @description Stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        credentialId: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAgent4GoUserCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    proxyAiGatewayGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: string;
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider's answer with its own status, streamed as it arrives (server-sent events pass event by event). The gateway's own errors come in the provider's error shape, not Hangar's: 401 unknown or revoked placeholder or no credential for the agent, 403 an agent the workspace does not use or a model the organization has not enabled, 404 unknown agent, 502 provider unreachable. A path that would leave the agent's base path (dot segments, backslashes, encoded slashes in any spelling) is a 400 with Hangar's Error body */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    proxyAiGateway: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: string;
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider's answer with its own status, streamed as it arrives (server-sent events pass event by event). The gateway's own errors come in the provider's error shape, not Hangar's: 401 unknown or revoked placeholder or no credential for the agent, 403 an agent the workspace does not use or a model the organization has not enabled, 404 unknown agent, 502 provider unreachable. A path that would leave the agent's base path (dot segments, backslashes, encoded slashes in any spelling) is a 400 with Hangar's Error body */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEnabledModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Enabled model ids */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled_models: {
                            source_a: string[];
                            source_b: string[];
                        };
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setEnabledModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    model_ids: string[];
                    /** @enum {unknown} */
                    source: "source_a" | "source_b";
                };
            };
        };
        responses: {
            /** @description Enabled model ids */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled_models: {
                            source_a: string[];
                            source_b: string[];
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
                query?: string;
                source?: "source_a" | "source_b";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the model catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        limit: number;
                        models: {
                            description?: string;
                            displayName: string;
                            id: string;
                        }[];
                        page: number;
                        /** @enum {unknown} */
                        source: "source_a" | "source_b";
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Not modified: If-None-Match named the ETag of the current answer */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnalyticsOverview: {
        parameters: {
            query?: {
                bucket?: "day" | "week" | "month";
                end?: string;
                start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The overview */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        bucket: "day" | "week" | "month";
                        /**
                         * Format: date-time
                         * @description Exclusive end of the range (UTC)
                         */
                        end: string;
                        /** @description Hangar's extension: AI gateway requests started in the range, per agent and model */
                        models: {
                            agent: string;
                            inputTokens: number;
                            model: string | null;
                            outputTokens: number;
                            requests: number;
                        }[];
                        /** @description Every bucket of the range, zeros included */
                        points: {
                            /**
                             * Format: date
                             * @description The bucket's UTC start date (the first and last buckets are clipped to the range)
                             */
                            bucket: string;
                            prsClosed: number;
                            prsMerged: number;
                            prsOpened: number;
                            workspacesCreated: number;
                        }[];
                        /** @description Workspaces created in the range per source, most first */
                        sources: {
                            count: number;
                            source: string;
                        }[];
                        /**
                         * Format: date-time
                         * @description Inclusive start of the range (UTC)
                         */
                        start: string;
                        summary: {
                            /** @description Billed minutes while workspaces were active, each interval rounded up to whole minutes */
                            computeMinutes: number;
                            prsClosed: number;
                            prsMerged: number;
                            prsOpened: number;
                            workspacesCreated: number;
                        };
                        /** @description Compute minutes per bucket and workspace source */
                        usage: {
                            /**
                             * Format: date
                             * @description The bucket's UTC start date (the first and last buckets are clipped to the range)
                             */
                            bucket: string;
                            bySource: {
                                [key: string]: number;
                            };
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAutomations: {
        parameters: {
            query?: {
                enabled?: boolean;
                limit?: number;
                page?: number;
                scope?: "org" | "user" | "all";
                search?: string;
                trigger_type?: "all" | "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of automations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        automations: {
                            /** @enum {unknown} */
                            agent_provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5" | null;
                            config: {
                                capabilities?: {
                                    pr_followups?: boolean;
                                    read_only_contents?: boolean;
                                };
                                preferences?: {
                                    keep_open_on_pr_close?: boolean;
                                    keep_open_on_pr_merge?: boolean;
                                };
                                /** @description Only when a workspace of the automation failed to provision */
                                provisioning_error?: {
                                    message?: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            cron_expression: string | null;
                            /** Format: date-time */
                            cron_next_fire_at: string | null;
                            cron_timezone: string | null;
                            debounce_seconds: number | null;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            environment_id: string;
                            fast_mode: boolean | null;
                            goal_mode: boolean | null;
                            /** Format: uuid */
                            id: string;
                            model: string | null;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            plan_mode: boolean;
                            prompt: string;
                            /** @enum {unknown} */
                            thinking_level: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode" | null;
                            triggers: {
                                config: Record<string, never>;
                                /** @enum {unknown} */
                                type: "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                            vcs_check_names: string[];
                            /** @description Present only with a custom trigger */
                            webhook_token: string | null;
                            workspace_auto_stop_minutes: number | null;
                            /** @enum {unknown} */
                            workspace_lifecycle_policy: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                            /** @enum {unknown} */
                            workspace_size: "small" | "large";
                        }[];
                        limit: number;
                        page: number;
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {unknown} */
                    agent_provider?: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5" | null;
                    config?: {
                        capabilities?: {
                            pr_followups?: boolean;
                            read_only_contents?: boolean;
                        } | null;
                        preferences?: {
                            keep_open_on_pr_close?: boolean;
                            keep_open_on_pr_merge?: boolean;
                        } | null;
                    };
                    debounce_seconds?: number | null;
                    description?: string | null;
                    enabled?: boolean;
                    /** Format: uuid */
                    environment_id: string;
                    fast_mode?: boolean | null;
                    goal_mode?: boolean | null;
                    model?: string | null;
                    name: string;
                    plan_mode?: boolean;
                    prompt: string;
                    /** @enum {unknown} */
                    scope?: "org" | "user";
                    /** @enum {unknown} */
                    thinking_level?: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode" | null;
                    triggers: {
                        config?: Record<string, never>;
                        /** @enum {unknown} */
                        type: "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
                    }[];
                    vcs_check_names?: string[];
                    workspace_auto_stop_minutes?: number | null;
                    /** @enum {unknown} */
                    workspace_lifecycle_policy?: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                    /** @enum {unknown} */
                    workspace_size?: "small" | "large";
                };
            };
        };
        responses: {
            /** @description The created automation */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        automation: {
                            /** @enum {unknown} */
                            agent_provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5" | null;
                            config: {
                                capabilities?: {
                                    pr_followups?: boolean;
                                    read_only_contents?: boolean;
                                };
                                preferences?: {
                                    keep_open_on_pr_close?: boolean;
                                    keep_open_on_pr_merge?: boolean;
                                };
                                /** @description Only when a workspace of the automation failed to provision */
                                provisioning_error?: {
                                    message?: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            cron_expression: string | null;
                            /** Format: date-time */
                            cron_next_fire_at: string | null;
                            cron_timezone: string | null;
                            debounce_seconds: number | null;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            environment_id: string;
                            fast_mode: boolean | null;
                            goal_mode: boolean | null;
                            /** Format: uuid */
                            id: string;
                            model: string | null;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            plan_mode: boolean;
                            prompt: string;
                            /** @enum {unknown} */
                            thinking_level: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode" | null;
                            triggers: {
                                config: Record<string, never>;
                                /** @enum {unknown} */
                                type: "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                            vcs_check_names: string[];
                            /** @description Present only with a custom trigger */
                            webhook_token: string | null;
                            workspace_auto_stop_minutes: number | null;
                            /** @enum {unknown} */
                            workspace_lifecycle_policy: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                            /** @enum {unknown} */
                            workspace_size: "small" | "large";
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The automation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        automation: {
                            /** @enum {unknown} */
                            agent_provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5" | null;
                            config: {
                                capabilities?: {
                                    pr_followups?: boolean;
                                    read_only_contents?: boolean;
                                };
                                preferences?: {
                                    keep_open_on_pr_close?: boolean;
                                    keep_open_on_pr_merge?: boolean;
                                };
                                /** @description Only when a workspace of the automation failed to provision */
                                provisioning_error?: {
                                    message?: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            cron_expression: string | null;
                            /** Format: date-time */
                            cron_next_fire_at: string | null;
                            cron_timezone: string | null;
                            debounce_seconds: number | null;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            environment_id: string;
                            fast_mode: boolean | null;
                            goal_mode: boolean | null;
                            /** Format: uuid */
                            id: string;
                            model: string | null;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            plan_mode: boolean;
                            prompt: string;
                            /** @enum {unknown} */
                            thinking_level: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode" | null;
                            triggers: {
                                config: Record<string, never>;
                                /** @enum {unknown} */
                                type: "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                            vcs_check_names: string[];
                            /** @description Present only with a custom trigger */
                            webhook_token: string | null;
                            workspace_auto_stop_minutes: number | null;
                            /** @enum {unknown} */
                            workspace_lifecycle_policy: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                            /** @enum {unknown} */
                            workspace_size: "small" | "large";
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {unknown} */
                    agent_provider?: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5" | null;
                    config?: {
                        capabilities?: {
                            pr_followups?: boolean;
                            read_only_contents?: boolean;
                        } | null;
                        preferences?: {
                            keep_open_on_pr_close?: boolean;
                            keep_open_on_pr_merge?: boolean;
                        } | null;
                    };
                    debounce_seconds?: number | null;
                    description?: string | null;
                    enabled?: boolean;
                    /** Format: uuid */
                    environment_id?: string;
                    fast_mode?: boolean | null;
                    goal_mode?: boolean | null;
                    model?: string | null;
                    name?: string;
                    plan_mode?: boolean;
                    prompt?: string;
                    /** @enum {unknown} */
                    thinking_level?: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode" | null;
                    triggers?: {
                        config?: Record<string, never>;
                        /** @enum {unknown} */
                        type: "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
                    }[];
                    vcs_check_names?: string[];
                    workspace_auto_stop_minutes?: number | null;
                    /** @enum {unknown} */
                    workspace_lifecycle_policy?: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                    /** @enum {unknown} */
                    workspace_size?: "small" | "large";
                };
            };
        };
        responses: {
            /** @description The updated automation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        automation: {
                            /** @enum {unknown} */
                            agent_provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5" | null;
                            config: {
                                capabilities?: {
                                    pr_followups?: boolean;
                                    read_only_contents?: boolean;
                                };
                                preferences?: {
                                    keep_open_on_pr_close?: boolean;
                                    keep_open_on_pr_merge?: boolean;
                                };
                                /** @description Only when a workspace of the automation failed to provision */
                                provisioning_error?: {
                                    message?: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            cron_expression: string | null;
                            /** Format: date-time */
                            cron_next_fire_at: string | null;
                            cron_timezone: string | null;
                            debounce_seconds: number | null;
                            description: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            environment_id: string;
                            fast_mode: boolean | null;
                            goal_mode: boolean | null;
                            /** Format: uuid */
                            id: string;
                            model: string | null;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            plan_mode: boolean;
                            prompt: string;
                            /** @enum {unknown} */
                            thinking_level: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode" | null;
                            triggers: {
                                config: Record<string, never>;
                                /** @enum {unknown} */
                                type: "cron" | "github" | "gitlab" | "slack" | "sentry" | "custom";
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                            vcs_check_names: string[];
                            /** @description Present only with a custom trigger */
                            webhook_token: string | null;
                            workspace_auto_stop_minutes: number | null;
                            /** @enum {unknown} */
                            workspace_lifecycle_policy: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                            /** @enum {unknown} */
                            workspace_size: "small" | "large";
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAutomationExecutions: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of executions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        executions: {
                            /** Format: uuid */
                            automation_id: string;
                            /** Format: date-time */
                            completed_at: string | null;
                            config: {
                                capabilities?: {
                                    pr_followups?: boolean;
                                    read_only_contents?: boolean;
                                };
                                preferences?: {
                                    keep_open_on_pr_close?: boolean;
                                    keep_open_on_pr_merge?: boolean;
                                };
                                /** @description Only when a workspace of the automation failed to provision */
                                provisioning_error?: {
                                    message?: string;
                                };
                            };
                            error: string | null;
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @enum {unknown} */
                            status: "pending" | "creating" | "running" | "completed" | "failed";
                            trigger_payload: Record<string, never>;
                            /** Format: date-time */
                            triggered_at: string;
                            /** Format: uuid */
                            workspace_id: string | null;
                        }[];
                        limit: number;
                        page: number;
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    triggerAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Embedded in the prompt under `## Trigger Payload` */
                    payload?: Record<string, never>;
                    /** @description A pull request to run for (automations with a github pull_request.command trigger covering the repository); its context is read from GitHub */
                    pr?: {
                        number: number;
                        /** Format: uuid */
                        repository_id: string;
                    };
                };
            };
        };
        responses: {
            /** @description The execution and its workspace (null if not created yet) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        execution_id: string;
                        /**
                         * Format: uuid
                         * @description Null when the run had not created its workspace within ~15 s
                         */
                        workspace_id: string | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    automationWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request cannot be processed as sent (details say why) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connections */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            /** @description Slack team id, Linear organization id, Sentry organization slug, GitLab instance host and group (e.g. gitlab.com/acme) */
                            external_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            provider: "slack" | "linear" | "sentry" | "gitlab";
                            /** @description Which secrets are stored (never their values) */
                            secrets_set: string[];
                            settings: Record<string, never>;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    external_id: string;
                    name: string;
                    /** @enum {string} */
                    provider: "slack" | "linear" | "sentry" | "gitlab";
                    secrets: {
                        access_token?: string;
                        /** @description GitLab: the access token answers are posted with (api scope), sent as PRIVATE-TOKEN */
                        api_token?: string;
                        bot_token?: string;
                        client_secret?: string;
                        signing_secret?: string;
                        webhook_secret?: string;
                        /** @description GitLab: the hooks' secret token (X-Gitlab-Token), at least 16 characters; it alone decides which organization a delivery reaches, so make it random (e.g. openssl rand -hex 32) */
                        webhook_token?: string;
                    };
                    settings?: {
                        /** @description Linear: the app user issues are assigned to */
                        app_user_id?: string;
                        /** @description Slack: the app's bot user (its own messages are never forwarded) */
                        bot_user_id?: string;
                        /** @description Sentry: the integration installation (uuid) */
                        installation_id?: string;
                        /** @description GitLab: the instance's base URL (default: the deployment's HANGAR_GITLAB_API_URL without /api/v4) */
                        instance_url?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Connected */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            /** @description Slack team id, Linear organization id, Sentry organization slug, GitLab instance host and group (e.g. gitlab.com/acme) */
                            external_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            provider: "slack" | "linear" | "sentry" | "gitlab";
                            /** @description Which secrets are stored (never their values) */
                            secrets_set: string[];
                            settings: Record<string, never>;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            /** @description Slack team id, Linear organization id, Sentry organization slug, GitLab instance host and group (e.g. gitlab.com/acme) */
                            external_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            provider: "slack" | "linear" | "sentry" | "gitlab";
                            /** @description Which secrets are stored (never their values) */
                            secrets_set: string[];
                            settings: Record<string, never>;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Disconnected */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    secrets?: {
                        access_token?: string;
                        /** @description GitLab: the access token answers are posted with (api scope), sent as PRIVATE-TOKEN */
                        api_token?: string;
                        bot_token?: string;
                        client_secret?: string;
                        signing_secret?: string;
                        webhook_secret?: string;
                        /** @description GitLab: the hooks' secret token (X-Gitlab-Token), at least 16 characters; it alone decides which organization a delivery reaches, so make it random (e.g. openssl rand -hex 32) */
                        webhook_token?: string;
                    };
                    settings?: {
                        /** @description Linear: the app user issues are assigned to */
                        app_user_id?: string;
                        /** @description Slack: the app's bot user (its own messages are never forwarded) */
                        bot_user_id?: string;
                        /** @description Sentry: the integration installation (uuid) */
                        installation_id?: string;
                        /** @description GitLab: the instance's base URL (default: the deployment's HANGAR_GITLAB_API_URL without /api/v4) */
                        instance_url?: string;
                    };
                };
            };
        };
        responses: {
            /** @description The connection */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            /** @description Slack team id, Linear organization id, Sentry organization slug, GitLab instance host and group (e.g. gitlab.com/acme) */
                            external_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            provider: "slack" | "linear" | "sentry" | "gitlab";
                            /** @description Which secrets are stored (never their values) */
                            secrets_set: string[];
                            settings: Record<string, never>;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per agent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        credentials: {
                            accepted_kinds?: ("api_key" | "oauth_token")[];
                            /** @enum {unknown} */
                            agent?: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            /**
                             * @description Which credential a workspace of the caller would use
                             * @enum {unknown}
                             */
                            effective_source?: "organization" | "personal" | null;
                            /** @description Members see only agent, scope and configured for organization credentials */
                            organization?: {
                                /** @enum {unknown} */
                                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                                configured: boolean;
                                /** Format: date-time */
                                created_at?: string | null;
                                /** Format: date-time */
                                expires_at?: string | null;
                                has_refresh_token?: boolean;
                                /** Format: uuid */
                                id?: string | null;
                                /** @enum {unknown} */
                                kind?: "api_key" | "oauth_token" | null;
                                /** Format: date-time */
                                last_used_at?: string | null;
                                /** @description `••••` followed by the last four characters (none for secrets under 12 characters) */
                                masked_secret?: string | null;
                                /** @enum {unknown} */
                                scope: "organization" | "personal";
                                /** Format: date-time */
                                updated_at?: string | null;
                            };
                            /** @description null for organization API keys */
                            personal?: {
                                /** @enum {unknown} */
                                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                                configured: boolean;
                                /** Format: date-time */
                                created_at?: string | null;
                                /** Format: date-time */
                                expires_at?: string | null;
                                has_refresh_token?: boolean;
                                /** Format: uuid */
                                id?: string | null;
                                /** @enum {unknown} */
                                kind?: "api_key" | "oauth_token" | null;
                                /** Format: date-time */
                                last_used_at?: string | null;
                                /** @description `••••` followed by the last four characters (none for secrets under 12 characters) */
                                masked_secret?: string | null;
                                /** @enum {unknown} */
                                scope: "organization" | "personal";
                                /** Format: date-time */
                                updated_at?: string | null;
                            } | null;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadMacDesktopApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                arch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect (Location) to a signed link valid for 10 minutes */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleaseFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (attachment; single byte ranges answer 206) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMacDesktopUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                arch: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A newer version is available */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        notes: string;
                        /** Format: date-time */
                        pub_date: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /** @description The installed version is current */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        notes: string;
                        /** Format: date-time */
                        pub_date: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchEnvironmentSkills: {
        parameters: {
            query?: {
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching skills, best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        skills: {
                            installs: number;
                            name: string;
                            slug: string;
                            source: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEnvironments: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
                scope?: "org" | "user" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of environments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environments: {
                            /** Format: date-time */
                            created_at?: string;
                            description?: string | null;
                            file_count?: number;
                            /** Format: uuid */
                            id?: string;
                            is_global?: boolean;
                            mcp_count?: number;
                            mobile_testing_enabled?: boolean;
                            name?: string;
                            /** Format: uuid */
                            organization_id?: string;
                            personal_preferences?: string | null;
                            /** Format: uuid */
                            repository_id?: string | null;
                            /** Format: uuid */
                            repository_set_id?: string | null;
                            skill_count?: number;
                            /** Format: uuid */
                            source_environment_id?: string | null;
                            system_prompt?: string | null;
                            /** Format: date-time */
                            updated_at?: string;
                            /** Format: uuid */
                            user_id?: string | null;
                            variable_count?: number;
                        }[];
                        limit: number;
                        page: number;
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    mobile_testing_enabled?: boolean;
                    name: string;
                    personal_preferences?: string | null;
                    /** Format: uuid */
                    repository_id?: string | null;
                    /** Format: uuid */
                    repository_set_id?: string | null;
                    /** @enum {unknown} */
                    scope?: "org" | "user";
                    /** Format: uuid */
                    source_environment_id?: string | null;
                    system_prompt?: string | null;
                };
            };
        };
        responses: {
            /** @description The created environment */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment: {
                            /** Format: date-time */
                            created_at?: string;
                            description?: string | null;
                            file_count?: number;
                            /** Format: uuid */
                            id?: string;
                            is_global?: boolean;
                            mcp_count?: number;
                            mobile_testing_enabled?: boolean;
                            name?: string;
                            /** Format: uuid */
                            organization_id?: string;
                            personal_preferences?: string | null;
                            /** Format: uuid */
                            repository_id?: string | null;
                            /** Format: uuid */
                            repository_set_id?: string | null;
                            skill_count?: number;
                            /** Format: uuid */
                            source_environment_id?: string | null;
                            system_prompt?: string | null;
                            /** Format: date-time */
                            updated_at?: string;
                            /** Format: uuid */
                            user_id?: string | null;
                            variable_count?: number;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEnvironmentFiles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every file of the environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_files: {
                            /** @description At most 65,536 bytes of UTF-8 */
                            content: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Defaults to the basename of `path` */
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @description Under the home directory: `~/...` (including `~/workspaces/...`); normalised on write, no `..` segments */
                            path: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEnvironmentFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 65,536 bytes of UTF-8 */
                    content: string;
                    /** @description Defaults to the basename of `path` */
                    name?: string;
                    /** @description Under the home directory: `~/...` (including `~/workspaces/...`); normalised on write, no `..` segments */
                    path: string;
                };
            };
        };
        responses: {
            /** @description The created file */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_file: {
                            /** @description At most 65,536 bytes of UTF-8 */
                            content: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Defaults to the basename of `path` */
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @description Under the home directory: `~/...` (including `~/workspaces/...`); normalised on write, no `..` segments */
                            path: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEnvironmentFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEnvironmentFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 65,536 bytes of UTF-8 */
                    content?: string;
                    /** @description Defaults to the basename of `path` */
                    name?: string;
                    /** @description Under the home directory: `~/...` (including `~/workspaces/...`); normalised on write, no `..` segments */
                    path?: string;
                };
            };
        };
        responses: {
            /** @description The updated file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_file: {
                            /** @description At most 65,536 bytes of UTF-8 */
                            content: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Defaults to the basename of `path` */
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @description Under the home directory: `~/...` (including `~/workspaces/...`); normalised on write, no `..` segments */
                            path: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEnvironmentMcps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every MCP server of the environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_mcps: {
                            config: {
                                args?: string[];
                                command: string;
                                env?: {
                                    [key: string]: string;
                                };
                            } | {
                                headers?: {
                                    [key: string]: string;
                                };
                                /** Format: uri */
                                url: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @enum {unknown} */
                            transport: "stdio" | "http" | "sse";
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEnvironmentMcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `stdio`: `{command, args[], env{}}`; `http`/`sse`: `{url, headers{}}`. Sent alone on PATCH it must fit the current transport */
                    config: Record<string, never>;
                    /** @description Must not start with the reserved prefix `hangar-` */
                    name: string;
                    /** @enum {unknown} */
                    transport: "stdio" | "http" | "sse";
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description The created MCP server */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_mcp: {
                            config: {
                                args?: string[];
                                command: string;
                                env?: {
                                    [key: string]: string;
                                };
                            } | {
                                headers?: {
                                    [key: string]: string;
                                };
                                /** Format: uri */
                                url: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @enum {unknown} */
                            transport: "stdio" | "http" | "sse";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEnvironmentMcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEnvironmentMcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `stdio`: `{command, args[], env{}}`; `http`/`sse`: `{url, headers{}}`. Sent alone on PATCH it must fit the current transport */
                    config?: Record<string, never>;
                    /** @description Must not start with the reserved prefix `hangar-` */
                    name?: string;
                    /** @enum {unknown} */
                    transport?: "stdio" | "http" | "sse";
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description The updated MCP server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_mcp: {
                            config: {
                                args?: string[];
                                command: string;
                                env?: {
                                    [key: string]: string;
                                };
                            } | {
                                headers?: {
                                    [key: string]: string;
                                };
                                /** Format: uri */
                                url: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @enum {unknown} */
                            transport: "stdio" | "http" | "sse";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRepoSkills: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was found; `error` says what could not be read */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string | null;
                        repo_skills: {
                            branch: string;
                            description: string | null;
                            /** @enum {unknown} */
                            framework: "agent_1" | "agent_2" | "agent_3" | "agents";
                            /** Format: uri */
                            html_url: string;
                            id: string;
                            /** @enum {unknown} */
                            kind: "skill" | "agent" | "command" | "prompt" | "plugin";
                            name: string;
                            path: string;
                            repository_full_name: string;
                            /**
                             * Format: uuid
                             * @description The bound repository, or the skills registry
                             */
                            repository_id: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEnvironmentSkills: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every skill of the environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_skills: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            slug: string;
                            /** @description e.g. `github:owner/repo/path` */
                            source: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEnvironmentSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    slug: string;
                    /** @description e.g. `github:owner/repo/path` */
                    source: string;
                };
            };
        };
        responses: {
            /** @description The created skill */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_skill: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            slug: string;
                            /** @description e.g. `github:owner/repo/path` */
                            source: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEnvironmentSkillsRegistries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The registries; `error` says why one could not be read */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        registries: {
                            /** Format: date-time */
                            created_at: string;
                            default_branch: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** @description Why the repository could not be read; null when it was */
                            error: string | null;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            repo_skills: {
                                branch: string;
                                description: string | null;
                                /** @enum {unknown} */
                                framework: "agent_1" | "agent_2" | "agent_3" | "agents";
                                /** Format: uri */
                                html_url: string;
                                id: string;
                                /** @enum {unknown} */
                                kind: "skill" | "agent" | "command" | "prompt" | "plugin";
                                name: string;
                                path: string;
                                repository_full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The bound repository, or the skills registry
                                 */
                                repository_id: string;
                            }[];
                            repository_full_name: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uri */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEnvironmentSkillsRegistry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description GitHub repository URL (e.g. https://github.com/org/skills-repo) */
                    url: string;
                };
            };
        };
        responses: {
            /** @description The registry (created even when its repository cannot be read: then `error` says why) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Why the repository could not be read; null when it was */
                        error: string | null;
                        registry: {
                            /** Format: date-time */
                            created_at: string;
                            default_branch: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            repository_full_name: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uri */
                            url: string;
                        };
                        repo_skills: {
                            branch: string;
                            description: string | null;
                            /** @enum {unknown} */
                            framework: "agent_1" | "agent_2" | "agent_3" | "agents";
                            /** Format: uri */
                            html_url: string;
                            id: string;
                            /** @enum {unknown} */
                            kind: "skill" | "agent" | "command" | "prompt" | "plugin";
                            name: string;
                            path: string;
                            repository_full_name: string;
                            /**
                             * Format: uuid
                             * @description The bound repository, or the skills registry
                             */
                            repository_id: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEnvironmentSkillsRegistry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                skillsRegistryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEnvironmentSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStartHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The start hook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        start_hook?: {
                            content?: string;
                            /** Format: date-time */
                            created_at?: string;
                            /** Format: uuid */
                            environment_id?: string;
                            /** Format: uuid */
                            id?: string;
                            is_active?: boolean;
                            /** Format: uuid */
                            organization_id?: string;
                            version?: number;
                        } | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    saveStartHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description The saved hook */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        start_hook?: {
                            content?: string;
                            /** Format: date-time */
                            created_at?: string;
                            /** Format: uuid */
                            environment_id?: string;
                            /** Format: uuid */
                            id?: string;
                            is_active?: boolean;
                            /** Format: uuid */
                            organization_id?: string;
                            version?: number;
                        } | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    saveAndTestStartHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description The saved hook and the test result */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        start_hook?: {
                            content?: string;
                            /** Format: date-time */
                            created_at?: string;
                            /** Format: uuid */
                            environment_id?: string;
                            /** Format: uuid */
                            id?: string;
                            is_active?: boolean;
                            /** Format: uuid */
                            organization_id?: string;
                            version?: number;
                        } | null;
                        test?: {
                            exit_code: number;
                            output: string;
                            timed_out: boolean;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testStartHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description The test result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        test: {
                            exit_code: number;
                            output: string;
                            timed_out: boolean;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamStartHookTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description SSE events, each with `type` in its data as the event name: `progress` ({message, step, state, exit_code}), `output` ({output}), `complete` ({exit_code, timed_out, output}) and `error` ({message, error, details}). Live output a slow client has not taken is skipped (an `output` line says how much); `complete` has all of it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEnvironmentVariables: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every variable of the environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_variables: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            key: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @description Whether personal environments may override this key; admins only */
                            personal_override_allowed: boolean;
                            /** Format: date-time */
                            updated_at: string;
                            value: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEnvironmentVariable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string;
                    /** @description Whether personal environments may override this key; admins only */
                    personal_override_allowed?: boolean;
                    value: string;
                };
            };
        };
        responses: {
            /** @description The created variable */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_variable: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            key: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @description Whether personal environments may override this key; admins only */
                            personal_override_allowed: boolean;
                            /** Format: date-time */
                            updated_at: string;
                            value: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEnvironmentVariable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEnvironmentVariable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key?: string;
                    /** @description Whether personal environments may override this key; admins only */
                    personal_override_allowed?: boolean;
                    value?: string;
                };
            };
        };
        responses: {
            /** @description The updated variable */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment_variable: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            environment_id: string;
                            /** Format: uuid */
                            id: string;
                            key: string;
                            /** Format: uuid */
                            organization_id: string;
                            /** @description Whether personal environments may override this key; admins only */
                            personal_override_allowed: boolean;
                            /** Format: date-time */
                            updated_at: string;
                            value: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWarmHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The warm hook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        warm_hook?: {
                            content?: string;
                            /** Format: date-time */
                            created_at?: string;
                            /** Format: uuid */
                            environment_id?: string;
                            /** Format: uuid */
                            id?: string;
                            is_active?: boolean;
                            /** Format: uuid */
                            organization_id?: string;
                            version?: number;
                        } | null;
                        /** @description WarmPoolConfigWithStats */
                        warm_pool?: Record<string, never> | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    saveWarmHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description The saved hook */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        warm_hook?: {
                            content?: string;
                            /** Format: date-time */
                            created_at?: string;
                            /** Format: uuid */
                            environment_id?: string;
                            /** Format: uuid */
                            id?: string;
                            is_active?: boolean;
                            /** Format: uuid */
                            organization_id?: string;
                            version?: number;
                        } | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    saveAndTestWarmHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description The saved hook and the test result */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        test?: {
                            exit_code: number;
                            output: string;
                            timed_out: boolean;
                        };
                        warm_hook?: {
                            content?: string;
                            /** Format: date-time */
                            created_at?: string;
                            /** Format: uuid */
                            environment_id?: string;
                            /** Format: uuid */
                            id?: string;
                            is_active?: boolean;
                            /** Format: uuid */
                            organization_id?: string;
                            version?: number;
                        } | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWarmHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description The test result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        test: {
                            exit_code: number;
                            output: string;
                            timed_out: boolean;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setWarmPool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                environmentId: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                };
            };
        };
        responses: {
            /** @description The warm-pool settings with stats */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description WarmPoolConfigWithStats */
                        warm_pool: Record<string, never> | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment: {
                            /** Format: date-time */
                            created_at?: string;
                            description?: string | null;
                            file_count?: number;
                            /** Format: uuid */
                            id?: string;
                            is_global?: boolean;
                            mcp_count?: number;
                            mobile_testing_enabled?: boolean;
                            name?: string;
                            /** Format: uuid */
                            organization_id?: string;
                            personal_preferences?: string | null;
                            /** Format: uuid */
                            repository_id?: string | null;
                            /** Format: uuid */
                            repository_set_id?: string | null;
                            skill_count?: number;
                            /** Format: uuid */
                            source_environment_id?: string | null;
                            system_prompt?: string | null;
                            /** Format: date-time */
                            updated_at?: string;
                            /** Format: uuid */
                            user_id?: string | null;
                            variable_count?: number;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string | "global";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string | "global";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    mobile_testing_enabled?: boolean;
                    name?: string;
                    personal_preferences?: string | null;
                    /** Format: uuid */
                    repository_id?: string | null;
                    /** Format: uuid */
                    repository_set_id?: string | null;
                    system_prompt?: string | null;
                };
            };
        };
        responses: {
            /** @description The updated environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        environment: {
                            /** Format: date-time */
                            created_at?: string;
                            description?: string | null;
                            file_count?: number;
                            /** Format: uuid */
                            id?: string;
                            is_global?: boolean;
                            mcp_count?: number;
                            mobile_testing_enabled?: boolean;
                            name?: string;
                            /** Format: uuid */
                            organization_id?: string;
                            personal_preferences?: string | null;
                            /** Format: uuid */
                            repository_id?: string | null;
                            /** Format: uuid */
                            repository_set_id?: string | null;
                            skill_count?: number;
                            /** Format: uuid */
                            source_environment_id?: string | null;
                            system_prompt?: string | null;
                            /** Format: date-time */
                            updated_at?: string;
                            /** Format: uuid */
                            user_id?: string | null;
                            variable_count?: number;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamOrganizationEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Messages `event: <type>` + `data: {ts, type, payload}`, no `id:` (nothing is replayed). `presence.changed`: payload `{change: joined|moved|typing, member, previous_location}`; `presence.left`: payload `{reason: left|expired, member}` (member as in GET /v1/presence). A comment heartbeat every 15 s. A client that falls too far behind gets a final `overflow` event `{type, message}` and reconnects. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never> | Record<string, never>[];
            };
        };
        responses: {
            /** @description The JSON-RPC answer (202 with no body for notifications); protocol errors are JSON-RPC error objects */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never> | unknown[];
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrganizationApiKeys: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys (never their secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: date-time
                             * @description Updated at most once a minute
                             */
                            last_used_at: string | null;
                            name: string;
                            /** @description The first characters of the key, for recognising it */
                            prefix: string;
                        }[];
                        limit: number;
                        page: number;
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOrganizationApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The created key, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description The secret; shown only in this answer */
                            key: string;
                            /**
                             * Format: date-time
                             * @description Updated at most once a minute
                             */
                            last_used_at: string | null;
                            name: string;
                            /** @description The first characters of the key, for recognising it */
                            prefix: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeOrganizationApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                apiKeyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credential, masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Members see only agent, scope and configured for organization credentials */
                        credential: {
                            /** @enum {unknown} */
                            agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            configured: boolean;
                            /** Format: date-time */
                            created_at?: string | null;
                            /** Format: date-time */
                            expires_at?: string | null;
                            has_refresh_token?: boolean;
                            /** Format: uuid */
                            id?: string | null;
                            /** @enum {unknown} */
                            kind?: "api_key" | "oauth_token" | null;
                            /** Format: date-time */
                            last_used_at?: string | null;
                            /** @description `••••` followed by the last four characters (none for secrets under 12 characters) */
                            masked_secret?: string | null;
                            /** @enum {unknown} */
                            scope: "organization" | "personal";
                            /** Format: date-time */
                            updated_at?: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setOrganizationCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description When the OAuth access token expires (oauth_token only)
                     */
                    expires_at?: string | null;
                    /**
                     * @description agent_3 and agent_5 take api_key only
                     * @enum {unknown}
                     */
                    kind: "api_key" | "oauth_token";
                    /** @description OAuth refresh token (oauth_token only) */
                    refresh_token?: string | null;
                    /** @description The API key or OAuth access token; at most 8192 bytes, no control characters */
                    secret: string;
                };
            };
        };
        responses: {
            /** @description The stored credential, masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Members see only agent, scope and configured for organization credentials */
                        credential: {
                            /** @enum {unknown} */
                            agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            configured: boolean;
                            /** Format: date-time */
                            created_at?: string | null;
                            /** Format: date-time */
                            expires_at?: string | null;
                            has_refresh_token?: boolean;
                            /** Format: uuid */
                            id?: string | null;
                            /** @enum {unknown} */
                            kind?: "api_key" | "oauth_token" | null;
                            /** Format: date-time */
                            last_used_at?: string | null;
                            /** @description `••••` followed by the last four characters (none for secrets under 12 characters) */
                            masked_secret?: string | null;
                            /** @enum {unknown} */
                            scope: "organization" | "personal";
                            /** Format: date-time */
                            updated_at?: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrganizationCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        settings: {
                            auto_responder_allowlist: {
                                logins: string[];
                                repository_ids: string[];
                            };
                            ci_failure_response: boolean;
                            /** @enum {unknown} */
                            default_coding_agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            /** Format: uuid */
                            default_environment_id: string | null;
                            default_models: {
                                agent_1: string | null;
                                agent_2: string | null;
                                agent_3: string | null;
                                agent_4: string | null;
                                agent_5: string | null;
                            };
                            /** @description null until the settings are first changed */
                            updated_at: string | null;
                        };
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOrganizationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Issues opened by these logins, or in these repositories, start a workspace without mentioning the bot. A list given replaces the stored one. */
                    auto_responder_allowlist?: {
                        /** @description GitHub/GitLab logins, compared without case */
                        logins?: string[];
                        /** @description The organization's connected repositories */
                        repository_ids?: string[];
                    };
                    /** @description Send a failed check run or pipeline on a workspace's own pull/merge request to its agent (default true) */
                    ci_failure_response?: boolean;
                    /**
                     * @description agent_1 unless set
                     * @enum {unknown}
                     */
                    default_coding_agent?: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                    /**
                     * Format: uuid
                     * @description A team environment of the organization, or null
                     */
                    default_environment_id?: string | null;
                    /** @description Merged: agents left out keep their default; null clears one. The agent must accept the model. */
                    default_models?: {
                        agent_1?: string | null;
                        agent_2?: string | null;
                        agent_3?: string | null;
                        agent_4?: string | null;
                        agent_5?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description The updated settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        settings: {
                            auto_responder_allowlist: {
                                logins: string[];
                                repository_ids: string[];
                            };
                            ci_failure_response: boolean;
                            /** @enum {unknown} */
                            default_coding_agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            /** Format: uuid */
                            default_environment_id: string | null;
                            default_models: {
                                agent_1: string | null;
                                agent_2: string | null;
                                agent_3: string | null;
                                agent_4: string | null;
                                agent_5: string | null;
                            };
                            /** @description null until the settings are first changed */
                            updated_at: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrganizationPlugins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The installs, by slug */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    installOrganizationPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http: `{url, headers{}}` (headers without secrets); stdio: `{command, args[], env{}}` (nothing secret). None for native plugins */
                    config?: Record<string, never>;
                    /** @default true */
                    enabled?: boolean;
                    /**
                     * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                     * @enum {unknown}
                     */
                    kind: "native" | "http" | "stdio";
                    name?: string;
                    /**
                     * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                     * @enum {unknown}
                     */
                    provides?: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                    secret?: {
                        /** @description Where Hangar sends it: `Authorization` (default; the value goes as `Bearer <value>`) or another header (an api_key only; the value as it is) */
                        header?: string;
                        /** @enum {unknown} */
                        type: "api_key" | "oauth_token";
                        /** @description Sealed at rest; never shown again */
                        value: string;
                    };
                    /** @description Names the plugin in its scope; a member's install of a slug replaces the organization's in their workspaces. A native plugin's slug is its catalog slug */
                    slug: string;
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description Installed */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The install */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrganizationPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uninstalled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOrganizationPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A whole new config for the plugin's kind */
                    config?: Record<string, never>;
                    enabled?: boolean;
                    name?: string;
                    /**
                     * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                     * @enum {unknown}
                     */
                    provides?: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                    /** @description A new secret, or null to remove it */
                    secret?: {
                        /** @description Where Hangar sends it: `Authorization` (default; the value goes as `Bearer <value>`) or another header (an api_key only; the value as it is) */
                        header?: string;
                        /** @enum {unknown} */
                        type: "api_key" | "oauth_token";
                        /** @description Sealed at rest; never shown again */
                        value: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The install as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPluginCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: {
                            available: boolean;
                            description: string;
                            /** @constant */
                            kind: "native";
                            name: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            slug: string;
                            tools: {
                                description: string;
                                name: string;
                            }[];
                            unavailable_reason: string | null;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPresence: {
        parameters: {
            query?: {
                location_id?: string;
                location_type?: "environment" | "workspace";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members whose latest heartbeat has not expired, by display name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: {
                            avatar_url: string | null;
                            display_name: string;
                            /**
                             * Format: date-time
                             * @description Gone at this time unless another heartbeat comes first
                             */
                            expires_at: string;
                            /**
                             * Format: date-time
                             * @description The latest heartbeat
                             */
                            last_seen_at: string;
                            location: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * @description An environment, or a workspace (replica) id
                                 * @enum {string}
                                 */
                                type: "environment" | "workspace";
                            };
                            typing: boolean;
                            /** Format: uuid */
                            user_id: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putPresence: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where the member is: an environment or a workspace of the organization they may see */
                    location: {
                        /** Format: uuid */
                        id: string;
                        /**
                         * @description An environment, or a workspace (replica) id
                         * @enum {string}
                         */
                        type: "environment" | "workspace";
                    };
                    /** @description Whether the member is typing there; default false */
                    typing?: boolean;
                };
            };
        };
        responses: {
            /** @description The member's presence, with its new expiry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        presence: {
                            avatar_url: string | null;
                            display_name: string;
                            /**
                             * Format: date-time
                             * @description Gone at this time unless another heartbeat comes first
                             */
                            expires_at: string;
                            /**
                             * Format: date-time
                             * @description The latest heartbeat
                             */
                            last_seen_at: string;
                            location: {
                                /** Format: uuid */
                                id: string;
                                /**
                                 * @description An environment, or a workspace (replica) id
                                 * @enum {string}
                                 */
                                type: "environment" | "workspace";
                            };
                            typing: boolean;
                            /** Format: uuid */
                            user_id: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePresence: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Gone (also when the member was not present) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAgentPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                port: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Preview deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        port: number;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReplicas: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
                source?: "api" | "dashboard" | "automation" | "github" | "gitlab" | "slack" | "linear";
                status?: "preparing" | "active" | "sleeping" | "archived" | "error";
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of workspaces */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        limit: number;
                        page: number;
                        replicas: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            last_activity_at: string | null;
                            name: string;
                            pull_requests: {
                                number?: number;
                                repository?: string;
                                url?: string;
                            }[];
                            repositories: {
                                /** Format: uuid */
                                id?: string;
                                name?: string;
                                url?: string;
                            }[];
                            source: string;
                            /** @enum {unknown} */
                            status: "preparing" | "active" | "sleeping" | "archived" | "error";
                        }[];
                        total: number;
                        total_pages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createReplica: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {unknown} */
                    coding_agent?: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                    config?: {
                        capabilities?: {
                            pr_followups?: boolean;
                            read_only_contents?: boolean;
                        };
                        preferences?: {
                            keep_open_on_pr_close?: boolean;
                            keep_open_on_pr_merge?: boolean;
                        };
                    };
                    /** Format: uuid */
                    environment_id?: string;
                    fast_mode?: boolean;
                    goal_mode?: boolean;
                    images?: {
                        source: {
                            data: string;
                            /** @enum {unknown} */
                            media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
                            /** @constant */
                            type: "base64";
                        } | {
                            /** @constant */
                            type: "url";
                            /** Format: uri */
                            url: string;
                        };
                        /** @constant */
                        type: "image";
                    }[];
                    /** @enum {unknown} */
                    lifecycle_policy?: "default" | "archive_when_done" | "sleep_when_done" | "delete_after_inactivity";
                    message: string;
                    model?: string;
                    name: string;
                    plan_mode?: boolean;
                    /** @enum {unknown} */
                    size?: "small" | "large";
                    /** @enum {unknown} */
                    thinking_level?: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode";
                    webhook_url?: string | {
                        secret?: string;
                        /** Format: uri */
                        url: string;
                    };
                };
            };
        };
        responses: {
            /** @description The workspace */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        replica: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            last_activity_at: string | null;
                            name: string;
                            pull_requests: {
                                number?: number;
                                repository?: string;
                                url?: string;
                            }[];
                            repositories: {
                                /** Format: uuid */
                                id?: string;
                                name?: string;
                                url?: string;
                            }[];
                            source: string;
                            /** @enum {unknown} */
                            status: "preparing" | "active" | "sleeping" | "archived" | "error";
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplica: {
        parameters: {
            query?: {
                include?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        replica: Record<string, never>;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReplica: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveReplica: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requested */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReplicaCanvasItems: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The canvas items */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            filename: string;
                            /** @enum {unknown} */
                            kind: "markdown" | "html" | "image" | "video" | "audio" | "other";
                            sizeBytes: number;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplicaCanvasItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                filename: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The canvas item */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The bytes (every other kind) */
                        base64?: string;
                        /** @description UTF-8 text (markdown, html) */
                        content?: string;
                        filename: string;
                        /** @enum {unknown} */
                        kind: "markdown" | "html" | "image" | "video" | "audio" | "other";
                        mimeType: string;
                        sizeBytes: number;
                        /**
                         * @description Over the 5 MB read cap: neither payload
                         * @constant
                         */
                        tooLarge?: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReplicaChats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chats */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        chats: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            parent_chat_id?: string | null;
                            processing: boolean;
                            provider: string;
                            title: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                        waking: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createReplicaChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientRequestId?: string;
                    /** Format: date-time */
                    createdAt?: string;
                    /** Format: uuid */
                    id?: string;
                    /** Format: uuid */
                    parentChatId?: string | null;
                    /** @enum {unknown} */
                    provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                    title?: string;
                };
            };
        };
        responses: {
            /** @description The chat */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        parent_chat_id?: string | null;
                        processing: boolean;
                        provider: string;
                        title: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReplicaChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplicaChatQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        chatId: string;
                        processing: boolean;
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    clearReplicaChatQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue after the edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeReplicaQueuedMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue after the edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reorderReplicaChatQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    messageId: string;
                    /** @description Zero-based; past the end means last */
                    position: number;
                };
            };
        };
        responses: {
            /** @description The queue after the edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReplicaSlashCommands: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The commands */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        commands: {
                            argumentHint?: string;
                            command: string;
                            description: string;
                            providers: string[];
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamReplicaEvents: {
        parameters: {
            query?: {
                after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Messages `id: <event id>` + `data: {id, ts, type, payload}`; members' presence in the workspace as `data: {ts, type, payload}` without an id (`presence.changed`, `presence.left`, as on GET /v1/events; not replayed); a comment heartbeat every 15 s. A client that falls too far behind gets a final `event: overflow` message `{type, message}` and reconnects with Last-Event-ID */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplicaHistory: {
        parameters: {
            query?: {
                chat_id?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        coding_agent: string | null;
                        events: {
                            payload: unknown;
                            /** Format: date-time */
                            timestamp: string;
                            type: string;
                        }[];
                        has_more: boolean;
                        senders: {
                            /** Format: date-time */
                            recordedAt?: string;
                            senderEmail?: string | null;
                            /** Format: uuid */
                            senderUserId?: string | null;
                        }[];
                        /** Format: uuid */
                        thread_id: string | null;
                        total: number;
                        waking: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplicaHookLogs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Hook logs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        start_hooks: {
                            logs: {
                                /** Format: date-time */
                                executedAt: string;
                                exitCode: number | null;
                                /** @description Start entries */
                                hookCommands?: string[];
                                hookName: string;
                                /** @description Warm entries */
                                hookScript?: string;
                                hookType: string;
                                output: string;
                                outputTotalChars: number;
                                outputTruncated: boolean;
                                /** @description Start entries; deprecated */
                                repoName?: string | null;
                                timedOut: boolean;
                            }[];
                        };
                        warm_hooks: {
                            logs: {
                                /** Format: date-time */
                                executedAt: string;
                                exitCode: number | null;
                                /** @description Start entries */
                                hookCommands?: string[];
                                hookName: string;
                                /** @description Warm entries */
                                hookScript?: string;
                                hookType: string;
                                output: string;
                                outputTotalChars: number;
                                outputTruncated: boolean;
                                /** @description Start entries; deprecated */
                                repoName?: string | null;
                                timedOut: boolean;
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReplicaMedia: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of media files */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        limit: number;
                        media: {
                            /** Format: date-time */
                            created_at: string;
                            filename: string;
                            /** Format: uuid */
                            id: string;
                            /** @enum {unknown} */
                            kind: "image" | "video" | "audio" | "other";
                            mime_type: string;
                            /** Format: uuid */
                            replica_id: string;
                            size_bytes: number;
                        }[];
                        page: number;
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadReplicaMedia: {
        parameters: {
            query?: {
                filename?: string;
                kind?: "image" | "video" | "audio" | "other";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        embed_expires_at: string;
                        /** @description A signed inline link with the longest link lifetime, for chat embeds */
                        embed_url: string;
                        /** @description `![filename](<embed_url>)` */
                        markdown: string;
                        media: {
                            /** Format: date-time */
                            created_at: string;
                            filename: string;
                            /** Format: uuid */
                            id: string;
                            /** @enum {unknown} */
                            kind: "image" | "video" | "audio" | "other";
                            mime_type: string;
                            /** Format: uuid */
                            replica_id: string;
                            size_bytes: number;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplicaMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                mediaId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The media file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        media: {
                            /** Format: date-time */
                            created_at: string;
                            filename: string;
                            /** Format: uuid */
                            id: string;
                            /** @enum {unknown} */
                            kind: "image" | "video" | "audio" | "other";
                            mime_type: string;
                            /** Format: uuid */
                            replica_id: string;
                            size_bytes: number;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReplicaMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                mediaId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplicaMediaContent: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path: {
                id: string;
                mediaId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (206 for a range) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createReplicaMediaLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                mediaId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @default attachment
                     * @enum {unknown}
                     */
                    disposition?: "attachment" | "inline";
                    /** @description Default 900; at most the configured maximum */
                    expires_in_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        expires_at: string;
                        url: string;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendReplicaMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    chat_id?: string;
                    /** @enum {unknown} */
                    coding_agent?: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                    fast_mode?: boolean;
                    goal_mode?: boolean;
                    images?: {
                        source: {
                            data: string;
                            /** @enum {unknown} */
                            media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
                            /** @constant */
                            type: "base64";
                        } | {
                            /** @constant */
                            type: "url";
                            /** Format: uri */
                            url: string;
                        };
                        /** @constant */
                        type: "image";
                    }[];
                    message: string;
                    model?: string;
                    plan_mode?: boolean;
                    /** Format: email */
                    senderEmail?: string;
                    /** Format: uuid */
                    senderUserId?: string;
                    /** @enum {unknown} */
                    thinking_level?: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode";
                };
            };
        };
        responses: {
            /** @description Accepted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        chat_id?: string;
                        /** Format: uuid */
                        message_id?: string;
                        position?: number | null;
                        /** @enum {unknown} */
                        status?: "sent" | "queued" | "waking";
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sleepReplica: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requested */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    wakeReplica: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether it is waking */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success?: true;
                        waking?: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRepositories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Repositories */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        repositories: {
                            default_branch: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRepositorySets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Repository sets */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        repository_sets: {
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            repositories: {
                                default_branch: string;
                                /** Format: uuid */
                                id: string;
                                name: string;
                                url: string;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    attachSlackThread: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Slack conversation id (C…, G…, D…) */
                    channel_id: string;
                    /** @description The thread's root message ts */
                    thread_ts: string;
                    /**
                     * Format: uuid
                     * @description Required with an API key; with an engine secret it defaults to (and may only be) the calling workspace
                     */
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description The thread and its workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        thread: {
                            channel_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description The ts of the last message forwarded to the workspace; null before the first */
                            last_processed_message_ts: string | null;
                            metadata: {
                                channel_id: string;
                                /** @description The message the thread was last routed or attached by */
                                message_ts?: string;
                                /** @description The root message's text: '' (not kept) */
                                original_message: string;
                                thread_ts: string;
                                /** @description The root message's Slack author: '' (not kept) */
                                user_id: string;
                            };
                            /** Format: uuid */
                            organization_id: string;
                            /** @description The Slack workspace (team) of the organization’s connection */
                            slack_team_id: string;
                            /**
                             * @description closed: the thread no longer reaches its workspace until a message or an attach opens it again
                             * @enum {unknown}
                             */
                            status: "open" | "closed";
                            thread_ts: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            workspace_id: string | null;
                        };
                        workspace: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPersonalApiKeys: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys (never their secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: date-time
                             * @description Updated at most once a minute
                             */
                            last_used_at: string | null;
                            name: string;
                            /** @description The first characters of the key, for recognising it */
                            prefix: string;
                        }[];
                        limit: number;
                        page: number;
                        total: number;
                        totalPages: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPersonalApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The created key, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_key: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description The secret; shown only in this answer */
                            key: string;
                            /**
                             * Format: date-time
                             * @description Updated at most once a minute
                             */
                            last_used_at: string | null;
                            name: string;
                            /** @description The first characters of the key, for recognising it */
                            prefix: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokePersonalApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                apiKeyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUserConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The identities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: {
                            /** Format: date-time */
                            created_at: string;
                            email: string | null;
                            /** @description A readable name (GitHub or GitLab: the login when linked) */
                            external_name: string | null;
                            /** @description Slack or Linear user id; GitHub or GitLab numeric user id (never the login) */
                            external_user_id: string;
                            /** Format: uuid */
                            id: string;
                            /** @enum {string} */
                            linked_via: "email" | "explicit";
                            /** @enum {string} */
                            provider: "slack" | "linear" | "github" | "gitlab";
                            /** Format: uuid */
                            user_id: string;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    linkUserConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    external_name?: string;
                    external_user_id: string;
                    /** @enum {string} */
                    provider: "slack" | "linear" | "github" | "gitlab";
                    /** Format: uuid */
                    user_id?: string;
                };
            };
        };
        responses: {
            /** @description Linked */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** Format: date-time */
                            created_at: string;
                            email: string | null;
                            /** @description A readable name (GitHub or GitLab: the login when linked) */
                            external_name: string | null;
                            /** @description Slack or Linear user id; GitHub or GitLab numeric user id (never the login) */
                            external_user_id: string;
                            /** Format: uuid */
                            id: string;
                            /** @enum {string} */
                            linked_via: "email" | "explicit";
                            /** @enum {string} */
                            provider: "slack" | "linear" | "github" | "gitlab";
                            /** Format: uuid */
                            user_id: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unlinkUserConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                identityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credential, masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Members see only agent, scope and configured for organization credentials */
                        credential: {
                            /** @enum {unknown} */
                            agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            configured: boolean;
                            /** Format: date-time */
                            created_at?: string | null;
                            /** Format: date-time */
                            expires_at?: string | null;
                            has_refresh_token?: boolean;
                            /** Format: uuid */
                            id?: string | null;
                            /** @enum {unknown} */
                            kind?: "api_key" | "oauth_token" | null;
                            /** Format: date-time */
                            last_used_at?: string | null;
                            /** @description `••••` followed by the last four characters (none for secrets under 12 characters) */
                            masked_secret?: string | null;
                            /** @enum {unknown} */
                            scope: "organization" | "personal";
                            /** Format: date-time */
                            updated_at?: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setUserCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description When the OAuth access token expires (oauth_token only)
                     */
                    expires_at?: string | null;
                    /**
                     * @description agent_3 and agent_5 take api_key only
                     * @enum {unknown}
                     */
                    kind: "api_key" | "oauth_token";
                    /** @description OAuth refresh token (oauth_token only) */
                    refresh_token?: string | null;
                    /** @description The API key or OAuth access token; at most 8192 bytes, no control characters */
                    secret: string;
                };
            };
        };
        responses: {
            /** @description The stored credential, masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Members see only agent, scope and configured for organization credentials */
                        credential: {
                            /** @enum {unknown} */
                            agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                            configured: boolean;
                            /** Format: date-time */
                            created_at?: string | null;
                            /** Format: date-time */
                            expires_at?: string | null;
                            has_refresh_token?: boolean;
                            /** Format: uuid */
                            id?: string | null;
                            /** @enum {unknown} */
                            kind?: "api_key" | "oauth_token" | null;
                            /** Format: date-time */
                            last_used_at?: string | null;
                            /** @description `••••` followed by the last four characters (none for secrets under 12 characters) */
                            masked_secret?: string | null;
                            /** @enum {unknown} */
                            scope: "organization" | "personal";
                            /** Format: date-time */
                            updated_at?: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUserCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUserPlugins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The installs, by slug */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        }[];
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    installUserPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http: `{url, headers{}}` (headers without secrets); stdio: `{command, args[], env{}}` (nothing secret). None for native plugins */
                    config?: Record<string, never>;
                    /** @default true */
                    enabled?: boolean;
                    /**
                     * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                     * @enum {unknown}
                     */
                    kind: "native" | "http" | "stdio";
                    name?: string;
                    /**
                     * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                     * @enum {unknown}
                     */
                    provides?: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                    secret?: {
                        /** @description Where Hangar sends it: `Authorization` (default; the value goes as `Bearer <value>`) or another header (an api_key only; the value as it is) */
                        header?: string;
                        /** @enum {unknown} */
                        type: "api_key" | "oauth_token";
                        /** @description Sealed at rest; never shown again */
                        value: string;
                    };
                    /** @description Names the plugin in its scope; a member's install of a slug replaces the organization's in their workspaces. A native plugin's slug is its catalog slug */
                    slug: string;
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description Installed */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The install */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUserPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uninstalled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUserPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A whole new config for the plugin's kind */
                    config?: Record<string, never>;
                    enabled?: boolean;
                    name?: string;
                    /**
                     * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                     * @enum {unknown}
                     */
                    provides?: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                    /** @description A new secret, or null to remove it */
                    secret?: {
                        /** @description Where Hangar sends it: `Authorization` (default; the value goes as `Bearer <value>`) or another header (an api_key only; the value as it is) */
                        header?: string;
                        /** @enum {unknown} */
                        type: "api_key" | "oauth_token";
                        /** @description Sealed at rest; never shown again */
                        value: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The install as changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugin: {
                            /** @description null for native plugins */
                            config: Record<string, never> | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            created_by: string | null;
                            enabled: boolean;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            name: string;
                            /** Format: uuid */
                            organization_id: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            /** @description Which secret is set and where it goes; never its value */
                            secret: {
                                header: string;
                                /** @enum {unknown} */
                                type: "api_key" | "oauth_token";
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: uuid */
                            user_id: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        profile: {
                            avatarUrl: string | null;
                            displayName: string;
                            email: string;
                            /** Format: uuid */
                            userId: string;
                        };
                    };
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description An http(s) URL with a host, or null to clear the avatar
                     */
                    avatarUrl?: string | null;
                    displayName?: string;
                };
            };
        };
        responses: {
            /** @description The updated profile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        profile: {
                            avatarUrl: string | null;
                            displayName: string;
                            email: string;
                            /** Format: uuid */
                            userId: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamWarmPoolWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SSE events, each with `type` in its data as the event name: `status` ({status}: the status when the stream opens and each change before the end), `output` ({output}: warm-hook stdout/stderr, only while `warming`; what a slow client has not taken is skipped, and a line says how much), `complete` ({workspace}: the final record, as in GET /v1/warm-pools/{configId}/workspaces; then the stream closes) and `error` ({message}). An entry already `ready`, `failed`, `expired` or `assigned` answers one `complete`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWarmPoolWorkspaces: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                configId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workspaces: Record<string, never>[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    githubWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        /** @description The delivery id (or, for GitHub, the same signed body under another id) was seen before; nothing was recorded again */
                        duplicate: boolean;
                        /** @description Why the delivery triggers nothing */
                        ignored?: string;
                        /** @description Automations the event was recorded for */
                        matched: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    gitlabWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        /** @description The delivery id (or, for GitHub, the same signed body under another id) was seen before; nothing was recorded again */
                        duplicate: boolean;
                        /** @description Why the delivery triggers nothing */
                        ignored?: string;
                        /** @description Automations the event was recorded for */
                        matched: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    linearWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        /** @description The Linear-Delivery id was seen before; nothing was done again */
                        duplicate: boolean;
                        /** @description Why the delivery does nothing */
                        ignored?: string;
                        /**
                         * @description What the delivery became for the issue's workspace
                         * @enum {unknown}
                         */
                        routed: "message" | "close" | null;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sentryWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        /** @description The Request-ID was seen before; nothing was recorded again */
                        duplicate: boolean;
                        /** @description Why the delivery triggers nothing */
                        ignored?: string;
                        /** @description Automations the event was recorded for */
                        matched: number;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    slackEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Acknowledged (url_verification: the challenge) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Slack-triggered automations the message was recorded for */
                        automations?: number;
                        /** @description url_verification: the challenge, echoed */
                        challenge?: string;
                        /** @description The message was delivered before; nothing was done again */
                        duplicate?: boolean;
                        /** @description Why the delivery does nothing */
                        ignored?: string;
                        ok?: boolean;
                        /** @description The message went to its thread’s workspace */
                        routed?: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requested */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkspaceChats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Chats, and the most recently deleted ones */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        chats: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            lastMessageText?: string;
                            /** Format: uuid */
                            parentChatId: string | null;
                            processing: boolean;
                            provider: string;
                            title: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                        deletedChats?: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            lastMessageText?: string;
                            /** Format: uuid */
                            parentChatId: string | null;
                            processing: boolean;
                            provider: string;
                            title: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkspaceChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientRequestId?: string;
                    /** Format: date-time */
                    createdAt?: string;
                    /** Format: uuid */
                    id?: string;
                    /** Format: uuid */
                    parentChatId?: string | null;
                    /** @enum {unknown} */
                    provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                    title?: string;
                };
            };
        };
        responses: {
            /** @description The chat */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        chat: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            lastMessageText?: string;
                            /** Format: uuid */
                            parentChatId: string | null;
                            processing: boolean;
                            provider: string;
                            title: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendWorkspaceChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    fastMode?: boolean;
                    goalMode?: boolean;
                    images?: {
                        source: {
                            data: string;
                            /** @enum {unknown} */
                            media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
                            /** @constant */
                            type: "base64";
                        } | {
                            /** @constant */
                            type: "url";
                            /** Format: uri */
                            url: string;
                        };
                        /** @constant */
                        type: "image";
                    }[];
                    message: string;
                    /** Format: uuid */
                    messageId?: string;
                    model?: string;
                    planMode?: boolean;
                    /** Format: date-time */
                    submittedAt?: string;
                    /** @enum {unknown} */
                    thinkingLevel?: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode";
                };
            };
        };
        responses: {
            /** @description Accepted by the active workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        messageId: string;
                        position: number;
                        queued: boolean;
                    };
                };
            };
            /** @description Queued while the workspace prepares or wakes; delivered in order */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        messageId: string;
                        position: number;
                        queued: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkspaceChatQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        chatId: string;
                        processing: boolean;
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    clearWorkspaceChatQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue after the edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeWorkspaceQueuedMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                messageId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue after the edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reorderWorkspaceChatQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    messageId: string;
                    /** @description Zero-based; past the end means last */
                    position: number;
                };
            };
        };
        responses: {
            /** @description The queue after the edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queue: {
                            /** Format: uuid */
                            id: string;
                            message: string;
                            /** Format: date-time */
                            queuedAt: string;
                            senderEmail?: string;
                            /** Format: uuid */
                            senderUserId?: string;
                        }[];
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendDeferredWorkspaceMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    chatId?: string;
                    fastMode?: boolean;
                    generateName?: boolean;
                    goalMode?: boolean;
                    images?: {
                        source: {
                            data: string;
                            /** @enum {unknown} */
                            media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
                            /** @constant */
                            type: "base64";
                        } | {
                            /** @constant */
                            type: "url";
                            /** Format: uri */
                            url: string;
                        };
                        /** @constant */
                        type: "image";
                    }[];
                    message: string;
                    /** Format: uuid */
                    messageId?: string;
                    model?: string;
                    planMode?: boolean;
                    /** @enum {unknown} */
                    provider: "agent_1" | "agent_2" | "agent_3" | "agent_4" | "agent_5";
                    /** Format: date-time */
                    submittedAt?: string;
                    /** @enum {unknown} */
                    thinkingLevel?: "low" | "medium" | "high" | "xhigh" | "max" | "ultra" | "ultracode";
                };
            };
        };
        responses: {
            /** @description Queued; the workspace is waking */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        chatId: string;
                        /** Format: uuid */
                        messageId: string;
                        /** @constant */
                        status: "waking";
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkspacePlugins: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plugins, by slug */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace
                             * @enum {unknown}
                             */
                            kind: "native" | "http" | "stdio";
                            /** @description The server's name in the agent's MCP config (`hangar-<slug>`) */
                            mcp_server: string;
                            name: string;
                            /**
                             * @description The integration this plugin gives the workspace (reported in the replica's environment block); native plugins have their own
                             * @enum {unknown}
                             */
                            provides: "github" | "gitlab" | "linear" | "slack" | "google" | null;
                            /** @enum {unknown} */
                            scope: "org" | "user";
                            slug: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkspacePluginMcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                installId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MCP streamable HTTP: the plugin's JSON-RPC answer (JSON or an event stream). Engine secret only: `Authorization: Bearer <engine secret>` with `X-Workspace-Id`; 401 without them, 404 for another workspace or a plugin this workspace does not get, 502 when a third-party server cannot be reached */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkspacePluginMcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                installId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MCP streamable HTTP: the plugin's JSON-RPC answer (JSON or an event stream). Engine secret only: `Authorization: Bearer <engine secret>` with `X-Workspace-Id`; 401 without them, 404 for another workspace or a plugin this workspace does not get, 502 when a third-party server cannot be reached */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWorkspacePluginMcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                installId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MCP streamable HTTP: the plugin's JSON-RPC answer (JSON or an event stream). Engine secret only: `Authorization: Bearer <engine secret>` with `X-Workspace-Id`; 401 without them, 404 for another workspace or a plugin this workspace does not get, 502 when a third-party server cannot be reached */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkspacePreviews: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The previews, by port */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        previews: {
                            authenticated: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description A port of the workspace (1–65535) */
                            port: number;
                            /**
                             * Format: uri
                             * @description Host form `{port}-{token}.{domain}` (the domain `localhost` unless HANGAR_PREVIEW_DOMAIN is set), or `/preview/{token}/` on the preview listener (HANGAR_PREVIEW_PORT, without a domain); never the API's own origin
                             */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkspacePreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only members (API key in X-Hangar-Api-Key, or a signed link) may open it; default false (public) */
                    authenticated?: boolean;
                    /** @description A port of the workspace (1–65535) */
                    port: number;
                };
            };
        };
        responses: {
            /** @description The port was already shared: its preview, URL unchanged, `authenticated` as asked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        preview: {
                            authenticated: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description A port of the workspace (1–65535) */
                            port: number;
                            /**
                             * Format: uri
                             * @description Host form `{port}-{token}.{domain}` (the domain `localhost` unless HANGAR_PREVIEW_DOMAIN is set), or `/preview/{token}/` on the preview listener (HANGAR_PREVIEW_PORT, without a domain); never the API's own origin
                             */
                            url: string;
                        };
                    };
                };
            };
            /** @description The new preview */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        preview: {
                            authenticated: boolean;
                            /** Format: date-time */
                            created_at: string;
                            /** @description A port of the workspace (1–65535) */
                            port: number;
                            /**
                             * Format: uri
                             * @description Host form `{port}-{token}.{domain}` (the domain `localhost` unless HANGAR_PREVIEW_DOMAIN is set), or `/preview/{token}/` on the preview listener (HANGAR_PREVIEW_PORT, without a domain); never the API's own origin
                             */
                            url: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWorkspacePreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                port: number;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Preview deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        port: number;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkspacePreviewLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                port: number;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Default 900 (15 minutes), at most 86400 (24 h) */
                    expires_in_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        link: {
                            /** Format: date-time */
                            expires_at: string;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uri
                             * @description Opens the preview once in a browser: sets a cookie scoped to the preview and redirects to the URL without the link
                             */
                            url: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeWorkspacePreviewLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                linkId: string;
                port: number;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sleepWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requested */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTerminalSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessions: {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Present once the shell has exited with a known status */
                            exitCode?: number;
                            exited: boolean;
                            /** Format: uuid */
                            id: string;
                            title: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTerminalSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cols: number;
                    rows: number;
                };
            };
        };
        responses: {
            /** @description The new session */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        session: {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Present once the shell has exited with a known status */
                            exitCode?: number;
                            exited: boolean;
                            /** Format: uuid */
                            id: string;
                            title: string;
                        };
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTerminalSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    writeTerminalInput: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: string;
                    /** @description The client's counter; a higher one resets input ordering, an older one is 409 */
                    generation: number;
                    /** @description Zero-based batch number within the generation; batches apply in this order */
                    sequence: number;
                };
            };
        };
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resizeTerminalSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cols: number;
                    rows: number;
                };
            };
        };
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamTerminalSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workspaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SSE: `output` events `{data}` (the replay first, then live output; each `id` is the output offset after it, so a reconnect with Last-Event-ID replays only what was missed) and one `exit` event `{exitCode}` when the shell ends; a client that falls too far behind gets a final `overflow` event `{type, message}` and reconnects */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid input (details name the field and rule) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid or missing API key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
