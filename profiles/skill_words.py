"""The words the skill resolver (``profiles.skill_resolver``) reads labels with: labels that are no technology, words
never a skill alone inside a phrase, and qualifiers set aside at a label's ends. Data, kept apart from the rules that
use it."""

# Labels that are no technology, as label keys with accents removed: soft skills, hobbies and design-pattern names
# in the languages real files use. Such a label makes no shared skill; it stays on the candidate as text.
NOT_TECHNOLOGY = frozenset(
    {
        # English soft skills
        "teamwork", "team-work", "team-player", "team-spirit", "team-building", "communication",
        "communications", "communication-skills", "verbal-communication", "written-communication", "leadership",
        "problem-solving", "problem-solver", "critical-thinking", "analytical-thinking", "time-management",
        "adaptability", "flexibility", "creativity", "collaboration", "empathy", "negotiation", "public-speaking",
        "presentation-skills", "interpersonal-skills", "people-skills", "soft-skills", "self-motivated",
        "self-motivation", "motivation", "attention-to-detail", "detail-oriented", "organization", "organisation",
        "organizational-skills", "organisational-skills", "punctuality", "responsibility", "reliability",
        "work-ethic", "hard-working", "hardworking", "fast-learner", "quick-learner", "willingness-to-learn",
        "proactive", "proactivity", "initiative", "emotional-intelligence", "conflict-resolution", "decision-making",
        "customer-service", "multitasking", "multi-tasking", "honesty", "patience", "curiosity", "commitment",
        "autonomy", "self-starter", "positive-attitude", "mentoring", "coaching", "storytelling",
        # Spanish
        "trabajo-en-equipo", "comunicacion", "comunicacion-efectiva", "liderazgo", "resolucion-de-problemas",
        "pensamiento-critico", "gestion-del-tiempo", "adaptabilidad", "flexibilidad", "creatividad", "empatia",
        "negociacion", "responsabilidad", "puntualidad", "proactividad", "iniciativa", "organizacion", "honestidad",
        "compromiso", "motivacion", "trabajo-bajo-presion", "atencion-al-cliente", "orientacion-a-resultados",
        "toma-de-decisiones", "capacidad-de-aprendizaje", "aprendizaje-continuo", "paciencia", "tolerancia",
        "disciplina", "perseverancia", "respeto", "amabilidad", "servicio-al-cliente", "escucha-activa",
        "relaciones-interpersonales", "habilidades-blandas", "autonomia", "ventas", "atencion-al-detalle",
        # French
        "travail-en-equipe", "esprit-d'equipe", "autonomie", "rigueur", "creativite", "adaptabilite",
        "sens-de-l'organisation", "curiosite", "ponctualite", "polyvalence", "esprit-d'analyse",
        # German
        "teamfahigkeit", "teamarbeit", "kommunikationsfahigkeit", "zuverlassigkeit", "belastbarkeit",
        "selbststandigkeit", "flexibilitat", "kreativitat",
        # Portuguese and Italian
        "trabalho-em-equipe", "trabalho-em-equipa", "comunicacao", "lideranca", "criatividade",
        "lavoro-di-squadra", "comunicazione", "creativita", "problem-solving-skills",
        # Hobbies
        "reading", "travel", "travelling", "traveling", "cooking", "football", "soccer", "basketball", "running",
        "cycling", "hiking", "photography", "music", "guitar", "piano", "chess", "swimming", "yoga", "painting",
        "drawing", "dancing", "gardening", "climbing", "skiing", "surfing", "fitness",
        # Design-pattern names: ideas a developer knows, not technologies to filter on ("Design patterns" stays one)
        "builder", "observer", "singleton", "factory", "factory-method", "abstract-factory", "adapter",
        "decorator", "facade", "visitor", "mediator", "memento", "flyweight", "chain-of-responsibility",
        "template-method", "builder-pattern", "observer-pattern", "singleton-pattern", "factory-pattern",
        "adapter-pattern", "decorator-pattern", "strategy-pattern", "visitor-pattern",
    }
)  # fmt: skip

# Words that are never a skill on their own inside a phrase, though a vocabulary of thousands of topics may hold them
# as labels: "Docker image design" names Docker, not Image and Design. A label written as just one of these is still
# looked up as written (rule 2).
NEVER_ALONE = frozenset(
    {
        "a", "an", "the", "and", "or", "of", "in", "on", "with", "for", "to", "by", "at", "from", "using", "via",
        "etc", "usage", "use", "design", "designs", "image", "images", "plugin", "plugins", "creation", "create",
        "development", "developer", "developing", "programming", "engineering", "engineer", "architecture",
        "basic", "basics", "advanced", "expert", "experience", "knowledge", "skills", "skill", "custom", "building",
        "build", "writing", "testing", "tests", "test", "management", "manager", "framework", "frameworks",
        "library", "libraries", "tool", "tools", "tooling", "language", "languages", "platform", "system",
        "systems", "service", "services", "application", "applications", "app", "apps", "project", "projects",
        "web", "data", "code", "software", "server", "client", "integration", "delivery", "deployment", "support",
        "api", "apis", "mvc", "cloud", "mobile", "native", "core", "performance", "security", "automation",
        "modern", "best", "practices", "patterns", "pattern", "principles", "concepts", "fundamentals",
        "optimization", "optimisation", "administration", "configuration", "setup", "good", "strong", "solid",
        "continuous", "agile", "scripting", "script", "scripts", "frontend", "backend", "front-end", "back-end",
        "processing",
    }
)  # fmt: skip

# Words that qualify a skill without changing it ("Python (advanced)", "basic SQL", "React framework"): rule 3 sets
# them aside at either end of a label.
QUALIFIERS = frozenset(
    {
        "basic", "basics", "advanced", "expert", "intermediate", "beginner", "proficient", "experienced", "strong",
        "solid", "good", "knowledge", "experience", "skills", "programming", "development", "framework", "library",
        "language", "and", "&", "with", "of", "in",
    }
)  # fmt: skip
