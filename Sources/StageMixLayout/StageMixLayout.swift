// StageMixLayout
