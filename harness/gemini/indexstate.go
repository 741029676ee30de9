package gemini

import (
	"encoding/binary"
	"hash/fnv"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
)

// The reader's state: a header, then the list of messages.
const (
	geminiStateVersion = 1
	// offsets in the header
	gsFlags   = 1
	gsID      = 2
	gsStart   = gsID + 36
	gsLast    = gsStart + 8
	gsTurns   = gsLast + 8
	gsMsgs    = gsTurns + 4
	gsEntries = gsMsgs + 4
	// geminiMaxEntries is the most messages the state lists.
	geminiMaxEntries = (harness.MaxState - gsEntries) / 4
	// geminiFold is how many of the oldest messages a full list folds into
	// its counts.
	geminiFold = geminiMaxEntries / 4
)

// header flags
const (
	gsSession = 1 << iota // the first line named a session of this file
	gsOther               // the first line did not: not a session file
	gsTitled              // the first prompt was seen
	gsSide                // a subagent's session
	gsHad                 // a prompt or a reply was seen
)

// entry flags: the low bits of a message's entry; the rest is its id's hash.
const (
	gePrompt = 1 << iota // a prompt the user typed
	geReply              // a reply: text, tool calls or thoughts
	geTexted             // its text went to the index
	geFlags  = gePrompt | geReply | geTexted
)

// geminiState is the reader's state, decoded.
type geminiState struct {
	flags       byte
	id          string
	start, last int64 // Unix ms; 0 for none
	turns, msgs uint32
	entries     []uint32
}

func (s *geminiState) encode() []byte {
	if s.flags == 0 {
		return nil
	}
	b := make([]byte, gsEntries, gsEntries+4*len(s.entries))
	b[0], b[gsFlags] = geminiStateVersion, s.flags
	copy(b[gsID:gsStart], s.id)
	binary.BigEndian.PutUint64(b[gsStart:], uint64(s.start))
	binary.BigEndian.PutUint64(b[gsLast:], uint64(s.last))
	binary.BigEndian.PutUint32(b[gsTurns:], s.turns)
	binary.BigEndian.PutUint32(b[gsMsgs:], s.msgs)
	for _, e := range s.entries {
		b = binary.BigEndian.AppendUint32(b, e)
	}
	return b
}

// decodeGeminiState reads a state back; false for one this reader did not
// write.
func decodeGeminiState(b []byte) (geminiState, bool) {
	if len(b) < gsEntries || b[0] != geminiStateVersion || (len(b)-gsEntries)%4 != 0 {
		return geminiState{}, false
	}
	s := geminiState{flags: b[gsFlags], id: strings.TrimRight(string(b[gsID:gsStart]), "\x00"),
		start: int64(binary.BigEndian.Uint64(b[gsStart:])), last: int64(binary.BigEndian.Uint64(b[gsLast:])),
		turns: binary.BigEndian.Uint32(b[gsTurns:]), msgs: binary.BigEndian.Uint32(b[gsMsgs:])}
	if s.flags&gsSession != 0 && !spec.ID.Valid(s.id) {
		return geminiState{}, false
	}
	for p := gsEntries; p < len(b); p += 4 {
		s.entries = append(s.entries, binary.BigEndian.Uint32(b[p:]))
	}
	return s, true
}

// totals are the prompts and the messages (prompts and replies) listed.
func (s *geminiState) totals() (turns, msgs int) {
	turns, msgs = int(s.turns), int(s.msgs)
	for _, e := range s.entries {
		if e&gePrompt != 0 {
			turns++
		}
		if e&(gePrompt|geReply) != 0 {
			msgs++
		}
	}
	return turns, msgs
}

// geminiIDHash is the part of an entry that names a message.
func geminiIDHash(id string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32() &^ geFlags
}

// find returns the index of the entry of a message, -1 for none; the
// newest first, the one Gemini writes again.
func (s *geminiState) find(h uint32) int {
	for i := len(s.entries) - 1; i >= 0; i-- {
		if s.entries[i]&^geFlags == h {
			return i
		}
	}
	return -1
}
