/**
 * The skills directory behind `GET /v1/environment-skills/search`. The original service
 * queries a public skills directory, which is out of reach from a self-hosted install, so a
 * small built-in catalog stands in (docs/decisions/environments.md, "Skills catalog"). `SkillsCatalog` is
 * the seam: a directory client with the same `search` can replace it.
 */

export interface CatalogSkill {
  name: string;
  slug: string;
  source: string;
  /** Illustrative popularity used for ordering, not a live count. */
  installs: number;
  description: string;
}

export interface SkillsCatalog {
  search(query: string): Array<Pick<CatalogSkill, 'name' | 'slug' | 'source' | 'installs'>>;
}

export const POPULAR_LIMIT = 10;
export const SEARCH_LIMIT = 20;

export const BUILT_IN_SKILLS: readonly CatalogSkill[] = [
  { name: 'Frontend Design', slug: 'frontend-design', source: 'github:agent-skills/core/skills/frontend-design', installs: 48210, description: 'Distinctive, production-grade web UI with React and CSS' },
  { name: 'Webapp Testing', slug: 'webapp-testing', source: 'github:agent-skills/core/skills/webapp-testing', installs: 31544, description: 'Drive a local web app with Playwright, screenshots and logs' },
  { name: 'PDF Toolkit', slug: 'pdf', source: 'github:agent-skills/documents/skills/pdf', installs: 29870, description: 'Extract text and tables, fill forms, merge and split PDF files' },
  { name: 'Spreadsheets', slug: 'xlsx', source: 'github:agent-skills/documents/skills/xlsx', installs: 22415, description: 'Read, write and chart Excel workbooks with formulas' },
  { name: 'Word Documents', slug: 'docx', source: 'github:agent-skills/documents/skills/docx', installs: 19032, description: 'Create and edit Word documents with tracked changes' },
  { name: 'MCP Server Builder', slug: 'mcp-builder', source: 'github:agent-skills/core/skills/mcp-builder', installs: 17688, description: 'Scaffold Model Context Protocol servers in TypeScript or Python' },
  { name: 'Skill Creator', slug: 'skill-creator', source: 'github:agent-skills/core/skills/skill-creator', installs: 15120, description: 'Write and package new agent skills' },
  { name: 'Test-Driven Development', slug: 'test-driven-development', source: 'github:devflow/skills/tdd', installs: 14302, description: 'Red, green, refactor: write the failing test first' },
  { name: 'Systematic Debugging', slug: 'systematic-debugging', source: 'github:devflow/skills/debugging', installs: 12977, description: 'Reproduce, bisect and root-cause bugs before fixing them' },
  { name: 'Code Review', slug: 'code-review', source: 'github:devflow/skills/code-review', installs: 11840, description: 'Review a diff for correctness, security and readability' },
  { name: 'Postgres Migrations', slug: 'postgres-migrations', source: 'github:dbtools/agent-skills/postgres-migrations', installs: 7311, description: 'Safe, reversible PostgreSQL schema migrations without downtime' },
  { name: 'Dockerfile Best Practices', slug: 'dockerfile', source: 'github:containerkit/skills/dockerfile', installs: 6954, description: 'Small, cache-friendly, non-root container images' },
  { name: 'Presentations', slug: 'pptx', source: 'github:agent-skills/documents/skills/pptx', installs: 6120, description: 'Build and edit PowerPoint slide decks' },
  { name: 'Changelog Writer', slug: 'changelog', source: 'github:devflow/skills/changelog', installs: 4408, description: 'Summarise merged pull requests into release notes' },
  { name: 'Terraform Plans', slug: 'terraform', source: 'github:infra-skills/terraform/skills/terraform', installs: 3876, description: 'Write Terraform modules and read plans before applying' },
];

const byPopularity = (a: CatalogSkill, b: CatalogSkill) => b.installs - a.installs || a.slug.localeCompare(b.slug);

/**
 * Every whitespace-separated term must occur (case-insensitively) in the name, slug, source
 * or description. Exact slug matches come first, then name or slug prefixes, then the rest,
 * each group by popularity. An empty query lists the most popular skills.
 */
export function createSkillsCatalog(skills: readonly CatalogSkill[] = BUILT_IN_SKILLS): SkillsCatalog {
  return {
    search(query) {
      const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
      const strip = ({ name, slug, source, installs }: CatalogSkill) => ({ name, slug, source, installs });
      if (terms.length === 0) return [...skills].sort(byPopularity).slice(0, POPULAR_LIMIT).map(strip);
      const phrase = terms.join(' ');
      const rank = (s: CatalogSkill) => {
        if (s.slug.toLowerCase() === phrase) return 0;
        if (s.slug.toLowerCase().startsWith(terms[0]!) || s.name.toLowerCase().startsWith(phrase)) return 1;
        return 2;
      };
      return skills
        .filter((s) => {
          const haystack = `${s.name} ${s.slug} ${s.source} ${s.description}`.toLowerCase();
          return terms.every((t) => haystack.includes(t));
        })
        .sort((a, b) => rank(a) - rank(b) || byPopularity(a, b))
        .slice(0, SEARCH_LIMIT)
        .map(strip);
    },
  };
}
