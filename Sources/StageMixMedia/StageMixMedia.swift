// StageMixMedia
