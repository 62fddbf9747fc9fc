"""Layer 3: editor features as functions of a snapshot, a document and offsets."""
