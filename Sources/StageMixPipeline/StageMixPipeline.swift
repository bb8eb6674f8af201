// StageMixPipeline
