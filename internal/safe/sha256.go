package safe

import "crypto/sha256"

// Sum256 is crypto/sha256's Sum256, for the callers that still name it here.
func Sum256(data []byte) [32]byte { return sha256.Sum256(data) }
