"""The HIERA agents: interfaces (base.py), the knowledge base (knowledge.py) and backends."""
