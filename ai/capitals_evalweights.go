package ai

// capEvalWeights are capWinChance's weights, one per capFeatures feature,
// fitted on 131,054 positions of 3,000 capitals games of four normal
// players (seed 2000) by
//
//	go test ./ai -run TestFitCapEval -capfitgames 3000 -fitseed 2000 -fitprocs 1
//
// (the weights printed, rounded). Log loss on 32,747 positions of held-out
// games: 0.4281, against 0.4716 for capEvaluate calibrated on the same
// data and 0.6343 for the base rate alone.
var capEvalWeights = [numCapFeatures]float64{
	-4.2205, 5.2953, 3.1046, -3.6879, -1.2274, -0.7099, -0.1976, -1.4409,
	2.1154, 0.3439, -0.2999, -0.6889, -0.2268, 3.7419, 2.1144, 0.1939,
}
