package bot

import (
	"github.com/riskbot/riskbot/bot/voice"

	"github.com/riskbot/riskbot/bot/hosted"
)

// voice returns the voice of match m.
func (b *Bot) voice(m *hosted.Match) voice.Voice {
	p := b.palette(m)
	return voice.New(p.Colors, p.RGB, b.mapImage)
}
